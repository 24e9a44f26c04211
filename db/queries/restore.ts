/**
 * Restoring a Lifeline export (docs/import.md): each memory is written as a new row of the user's, never under
 * the export's ids, with its history as the export has it. A memory is found again by the export's id of it
 * plus a hash of its content (memories_user_restored_idx), or as a memory of the user's with the same words,
 * so the same file again adds nothing.
 */
import { and, eq, inArray, or, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import {
  type Actor,
  type MemoryEventAction,
  type MemoryProvenance,
  type MemorySnapshot,
  type MemoryType,
  memories,
  memoryEvents,
} from "@/db/schema";
import { memoryContentHash } from "./content-hash";
import { lockConsolidation } from "./memories";

export interface RestoringEvent {
  action: MemoryEventAction;
  actor: Actor;
  before: MemorySnapshot | null;
  after: MemorySnapshot | null;
  reason: string | null;
  createdAt: string;
}

export interface RestoringMemory {
  sourceId: string;
  content: string;
  title: string | null;
  type: MemoryType;
  tags: string[];
  importance: number;
  confidence: number | null;
  provenance: MemoryProvenance;
  status: "active" | "pending_confirmation";
  pinned: boolean;
  isActionable: boolean;
  deadline: string | null;
  evidence: { role: "user" | "assistant"; quote: string }[];
  pastedAt: string | null;
  createdAt: string;
  updatedAt: string;
  editedAt: string | null;
  history: RestoringEvent[];
}

export interface RestorePlan<M extends RestoringMemory> {
  fresh: M[];
  /** Restored before, or a memory of the user's with the same words. */
  alreadyPresent: number;
}

/** Reads only: what a batch would add. */
export async function planRestore<M extends RestoringMemory>(
  db: Db,
  { userId, memories: batch }: { userId: string; memories: M[] },
): Promise<RestorePlan<M>> {
  const rows = await db
    .select({
      content: memories.content,
      status: memories.status,
      restoredFromId: memories.restoredFromId,
      restoredContentHash: memories.restoredContentHash,
    })
    .from(memories)
    .where(
      and(
        eq(memories.userId, userId),
        or(
          inArray(
            memories.restoredFromId,
            batch.map((memory) => memory.sourceId),
          ),
          and(
            inArray(
              memories.content,
              batch.map((memory) => memory.content),
            ),
            inArray(memories.status, ["active", "pending_confirmation"]),
          ),
        ),
      ),
    );
  const keys = new Set(rows.map((row) => `${row.restoredFromId}\n${row.restoredContentHash}`));
  const words = new Set(
    rows.filter((row) => row.status === "active" || row.status === "pending_confirmation").map((row) => row.content),
  );
  const fresh: M[] = [];
  let alreadyPresent = 0;
  for (const memory of batch) {
    const present = keys.has(`${memory.sourceId}\n${memoryContentHash(memory.content)}`) || words.has(memory.content);
    if (present) alreadyPresent += 1;
    else {
      fresh.push(memory);
      // The same words twice in one file are one memory.
      words.add(memory.content);
    }
  }
  return { fresh, alreadyPresent };
}

/** Null: the memory's id in another account. A restored snapshot keeps its other fields as the export has them. */
function ownSnapshot(snapshot: MemorySnapshot | null): MemorySnapshot | null {
  if (!snapshot || !("supersededById" in snapshot)) return snapshot;
  return { ...snapshot, supersededById: null };
}

/**
 * One transaction: every memory of `fresh` (vectors in the same order) with its history, or none. A memory
 * restored meanwhile by another request is skipped by the unique key, so two uploads of one file add it once.
 */
export async function writeRestoredMemories(
  db: Db,
  input: {
    userId: string;
    fresh: RestoringMemory[];
    vectors: number[][];
    embeddingModel: string;
    restoredAt: Date;
  },
): Promise<{ restored: number; alreadyPresent: number }> {
  const { userId } = input;
  return db.transaction(async (tx) => {
    await lockConsolidation(tx, { userId });
    let restored = 0;
    for (const [index, memory] of input.fresh.entries()) {
      const [row] = await tx
        .insert(memories)
        .values({
          userId,
          content: memory.content,
          title: memory.title,
          type: memory.type,
          tags: memory.tags,
          importance: memory.importance,
          confidence: memory.confidence,
          embedding: input.vectors[index],
          embeddingModel: input.embeddingModel,
          evidence: memory.evidence,
          provenance: memory.provenance,
          status: memory.status,
          pinned: memory.pinned,
          isActionable: memory.isActionable,
          deadline: memory.deadline,
          pastedAt: memory.pastedAt ? new Date(memory.pastedAt) : null,
          restoredAt: input.restoredAt,
          restoredFromId: memory.sourceId,
          restoredContentHash: memoryContentHash(memory.content),
          createdAt: new Date(memory.createdAt),
          updatedAt: new Date(memory.updatedAt),
          editedAt: memory.editedAt ? new Date(memory.editedAt) : null,
        })
        .onConflictDoNothing({
          target: [memories.userId, memories.restoredFromId, memories.restoredContentHash],
          where: sql`${memories.restoredFromId} IS NOT NULL`,
        })
        .returning({ id: memories.id });
      if (!row) continue;
      restored += 1;
      if (memory.history.length === 0) continue;
      await tx.insert(memoryEvents).values(
        memory.history.map((event) => ({
          userId,
          memoryId: row.id,
          action: event.action,
          actor: event.actor,
          before: ownSnapshot(event.before),
          after: ownSnapshot(event.after),
          reason: event.reason,
          createdAt: new Date(event.createdAt),
        })),
      );
    }
    return { restored, alreadyPresent: input.fresh.length - restored };
  });
}
