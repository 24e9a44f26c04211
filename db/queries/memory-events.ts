/** Rows are only ever appended. */
import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import {
  type Actor,
  MEMORY_SNAPSHOT_FIELDS,
  type MemoryEventAction,
  type MemoryPrior,
  type MemorySnapshot,
  type memories,
  memoryEvents,
} from "@/db/schema";

export type MemoryRow = typeof memories.$inferSelect;

export interface MemoryEvent {
  id: string;
  memoryId: string;
  action: MemoryEventAction;
  actor: Actor;
  before: MemorySnapshot | null;
  after: MemorySnapshot | null;
  reason: string | null;
  extractionId: string | null;
  createdAt: Date;
}

export interface NewMemoryEvent {
  userId: string;
  memoryId: string;
  action: MemoryEventAction;
  actor: Actor;
  before: MemorySnapshot | null;
  after: MemorySnapshot | null;
  prior?: MemoryPrior | null;
  reason?: string | null;
  extractionId?: string | null;
}

/** What an extraction's change replaces beyond the snapshot (MemoryPrior). */
export function priorOf(
  memory: Pick<MemoryRow, "evidence" | "examinedMessageIds" | "confidence" | "provenance" | "updatedAt">,
): MemoryPrior {
  return {
    evidence: memory.evidence,
    examinedMessageIds: memory.examinedMessageIds,
    confidence: memory.confidence,
    provenance: memory.provenance,
    updatedAt: memory.updatedAt.toISOString(),
  };
}

export function snapshotOf(memory: Pick<MemoryRow, (typeof MEMORY_SNAPSHOT_FIELDS)[number]>): MemorySnapshot {
  return Object.fromEntries(MEMORY_SNAPSHOT_FIELDS.map((field) => [field, memory[field]])) as MemorySnapshot;
}

const eventColumns = {
  id: memoryEvents.id,
  memoryId: memoryEvents.memoryId,
  action: memoryEvents.action,
  actor: memoryEvents.actor,
  before: memoryEvents.before,
  after: memoryEvents.after,
  reason: memoryEvents.reason,
  extractionId: memoryEvents.extractionId,
  createdAt: memoryEvents.createdAt,
};

export async function insertMemoryEvents(db: Db, events: readonly NewMemoryEvent[]): Promise<void> {
  if (events.length === 0) return;
  await db.insert(memoryEvents).values(
    events.map((event) => ({
      userId: event.userId,
      memoryId: event.memoryId,
      action: event.action,
      actor: event.actor,
      before: event.before,
      after: event.after,
      prior: event.prior ?? null,
      reason: event.reason ?? null,
      extractionId: event.extractionId ?? null,
      // Not the transaction's start: events of one transaction keep their order.
      createdAt: sql`clock_timestamp()`,
    })),
  );
}

/** Callers check ownership first; the owner filter keeps the query safe on its own. */
export async function listMemoryEvents(
  db: Db,
  { userId, memoryId }: { userId: string; memoryId: string },
): Promise<MemoryEvent[]> {
  return db
    .select(eventColumns)
    .from(memoryEvents)
    .where(and(eq(memoryEvents.memoryId, memoryId), eq(memoryEvents.userId, userId)))
    .orderBy(desc(memoryEvents.createdAt), desc(memoryEvents.id));
}
