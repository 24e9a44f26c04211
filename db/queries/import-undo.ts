import { isDeepStrictEqual } from "node:util";
import { and, asc, eq, inArray, or } from "drizzle-orm";
import { AppError } from "@/core/errors";
import type { Db } from "@/db/client";
import {
  conversations,
  imports,
  type MemoryPrior,
  type MemorySnapshot,
  memories,
  memoryEvents,
  memoryExtractions,
} from "@/db/schema";
import { type MemoryRow, snapshotOf } from "./memory-events";
import { redactDeletedMemories } from "./redaction";
import { memoryEmbeddingText } from "./vectors";

export interface KeptMemory {
  id: string;
  title: string | null;
  content: string;
}

export interface UndoneImport {
  conversationsDeleted: number;
  /** Memories the import created: erased, their text redacted from every derived record (as Delete all does). */
  memoriesErased: number;
  /** Memories the import updated or superseded: back as they were before its first change to them. */
  memoriesRestored: number;
  /** Memories the import changed that changed again afterwards (an edit, a live extraction, a delete): left as they are. */
  memoriesKept: number;
  kept: KeptMemory[];
}

/** Vectors for the texts a restored version needs, by embedding text, and the embedder that made them. */
export interface RestoreVectors {
  model: string;
  byText: ReadonlyMap<string, number[]>;
}

/**
 * Thrown before anything is written when a memory goes back to words whose vector the caller has not given:
 * the caller embeds `texts` outside the transaction and undoes again.
 */
export class UndoNeedsVectors extends Error {
  override readonly name = "UndoNeedsVectors";
  constructor(readonly texts: string[]) {
    super(`undo needs ${texts.length} embedding(s)`);
  }
}

interface HistoryEvent {
  id: string;
  memoryId: string;
  action: string;
  before: MemorySnapshot | null;
  after: MemorySnapshot | null;
  prior: MemoryPrior | null;
  createdAt: Date;
}

/** Consolidation's "already known": the history notes the fact was seen again, and nothing changed. */
function seenAgain(event: HistoryEvent): boolean {
  return event.action === "update" && event.prior === null && isDeepStrictEqual(event.before, event.after);
}

export type RevertPlan =
  | { kind: "unchanged" }
  | { kind: "kept" }
  | { kind: "revert"; before: MemorySnapshot; prior: MemoryPrior | null };

/**
 * What undo does with a memory the import touched but did not create, from the memory's whole history: put it back
 * as the import's first change found it, unless a change not the import's came after that one (or that change
 * recorded no earlier version). Only seeing a fact again changed nothing.
 */
export function planRevert(history: readonly HistoryEvent[], fromImport: ReadonlySet<string>): RevertPlan {
  const ordered = [...history].sort(
    (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id),
  );
  const first = ordered.find((event) => fromImport.has(event.id) && !seenAgain(event));
  if (!first) return { kind: "unchanged" };
  const changedSince = ordered.some(
    (event) => !fromImport.has(event.id) && event.createdAt >= first.createdAt && !seenAgain(event),
  );
  if (changedSince || !first.before) return { kind: "kept" };
  return { kind: "revert", before: first.before, prior: first.prior };
}

/**
 * Removes what an import brought, in one transaction: its conversations (their messages, extractions and
 * records cascade), the memories its exchanges created, and the import itself; a memory it updated or superseded
 * goes back to its version before the import (re-embedded when its words change), and loses the import's history
 * events, unless it changed again since. A store in flight commits first: its extraction row is locked before
 * anything it references, the order a store takes them in.
 */
export async function undoImport(
  db: Db,
  { userId, importId, vectors }: { userId: string; importId: string; vectors?: RestoreVectors },
): Promise<UndoneImport> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ id: imports.id })
      .from(imports)
      .where(and(eq(imports.id, importId), eq(imports.userId, userId)))
      .for("update");
    if (!row) throw new AppError("not_found:import", "Import not found");

    const extractionIds = (
      await tx
        .select({ id: memoryExtractions.id })
        .from(memoryExtractions)
        .where(and(eq(memoryExtractions.importId, importId), eq(memoryExtractions.userId, userId)))
        .orderBy(asc(memoryExtractions.id))
        .for("update")
    ).map((r) => r.id);
    // An import not kept has no extractions left: its events carry its id instead.
    const events = await tx
      .select({ id: memoryEvents.id, memoryId: memoryEvents.memoryId, action: memoryEvents.action })
      .from(memoryEvents)
      .where(
        and(
          eq(memoryEvents.userId, userId),
          extractionIds.length === 0
            ? eq(memoryEvents.importId, importId)
            : or(inArray(memoryEvents.extractionId, extractionIds), eq(memoryEvents.importId, importId)),
        ),
      );
    const importedConversations = (
      await tx
        .select({ id: conversations.id })
        .from(conversations)
        .where(and(eq(conversations.importId, importId), eq(conversations.userId, userId)))
    ).map((r) => r.id);

    const createdByEvent = events.filter((e) => e.action === "create").map((e) => e.memoryId);
    const fromImport = [
      ...(createdByEvent.length > 0 ? [inArray(memories.id, createdByEvent)] : []),
      ...(importedConversations.length > 0 ? [inArray(memories.sourceConversationId, importedConversations)] : []),
    ];
    // Without a condition `or()` is empty and the filter would be the user's alone: every memory.
    const created =
      fromImport.length === 0
        ? []
        : await tx
            .select({ id: memories.id })
            .from(memories)
            .where(and(eq(memories.userId, userId), or(...fromImport)))
            .orderBy(asc(memories.id))
            .for("update");
    const erasedIds = created.map((m) => m.id);
    const erased = new Set(erasedIds);

    const touchedIds = [...new Set(events.map((e) => e.memoryId))].filter((id) => !erased.has(id)).sort();
    const touched =
      touchedIds.length === 0
        ? []
        : await tx
            .select()
            .from(memories)
            .where(and(eq(memories.userId, userId), inArray(memories.id, touchedIds)))
            .orderBy(asc(memories.id))
            .for("update");
    const histories =
      touchedIds.length === 0
        ? []
        : await tx
            .select({
              id: memoryEvents.id,
              memoryId: memoryEvents.memoryId,
              action: memoryEvents.action,
              before: memoryEvents.before,
              after: memoryEvents.after,
              prior: memoryEvents.prior,
              createdAt: memoryEvents.createdAt,
            })
            .from(memoryEvents)
            .where(and(eq(memoryEvents.userId, userId), inArray(memoryEvents.memoryId, touchedIds)));
    const importEventIds = new Set(events.map((e) => e.id));

    const reverts: { memory: MemoryRow; changes: Partial<MemoryRow> }[] = [];
    const dropHistoryOf: string[] = [];
    const kept: KeptMemory[] = [];
    const missing = new Set<string>();
    for (const memory of touched) {
      const plan = planRevert(
        histories.filter((e) => e.memoryId === memory.id),
        importEventIds,
      );
      if (plan.kind === "kept") {
        kept.push({ id: memory.id, title: memory.title, content: memory.content });
        continue;
      }
      dropHistoryOf.push(memory.id);
      if (plan.kind === "unchanged") continue;
      const restored = { ...snapshotOf(memory), ...plan.before };
      const changes: Partial<MemoryRow> = {
        ...restored,
        supersededById:
          restored.supersededById && erased.has(restored.supersededById) ? null : (restored.supersededById ?? null),
        // Events written before `prior` existed leave these as the import left them.
        ...(plan.prior
          ? {
              evidence: plan.prior.evidence,
              examinedMessageIds: plan.prior.examinedMessageIds,
              confidence: plan.prior.confidence,
              provenance: plan.prior.provenance,
              updatedAt: new Date(plan.prior.updatedAt),
            }
          : {}),
      };
      const text = memoryEmbeddingText({ title: restored.title ?? null, content: restored.content ?? memory.content });
      // A memory never embedded stays so: the re-embedding job owns it.
      if (text !== memoryEmbeddingText(memory)) {
        const vector = vectors?.byText.get(text);
        if (!vector || !vectors) missing.add(text);
        else Object.assign(changes, { embedding: vector, embeddingModel: vectors.model });
      }
      reverts.push({ memory, changes });
    }
    if (missing.size > 0) throw new UndoNeedsVectors([...missing]);

    if (erasedIds.length > 0) {
      await tx.delete(memories).where(and(eq(memories.userId, userId), inArray(memories.id, erasedIds)));
      await redactDeletedMemories(tx, { userId, memoryIds: erasedIds });
    }
    for (const { memory, changes } of reverts) {
      await tx
        .update(memories)
        .set(changes)
        .where(and(eq(memories.userId, userId), eq(memories.id, memory.id)));
    }
    const dropped = events.filter((e) => dropHistoryOf.includes(e.memoryId)).map((e) => e.id);
    if (dropped.length > 0) {
      await tx.delete(memoryEvents).where(and(eq(memoryEvents.userId, userId), inArray(memoryEvents.id, dropped)));
    }

    const deletedConversations =
      importedConversations.length === 0
        ? []
        : await tx
            .delete(conversations)
            .where(and(eq(conversations.userId, userId), inArray(conversations.id, importedConversations)))
            .returning({ id: conversations.id });
    await tx.delete(imports).where(and(eq(imports.id, importId), eq(imports.userId, userId)));
    return {
      conversationsDeleted: deletedConversations.length,
      memoriesErased: erasedIds.length,
      memoriesRestored: reverts.length,
      memoriesKept: kept.length,
      kept,
    };
  });
}
