/**
 * The extraction of a message pair as the API shows it: the status row, what it stored, and the
 * consolidation decisions behind it (the debug view).
 */
import type { Db } from "@/db/client";
import { type Extraction, getExtractionForMessage } from "@/db/queries/extractions";
import { listMemoriesByIds, type MemoryRecord } from "@/db/queries/memories";
import type { ExtractionStatus } from "@/db/schema";
import type { CapturedCall } from "@/lib/ai/capture";
import type { StoredDecision } from "@/lib/memory/extraction/store";
import { MAX_EXTRACTION_ATTEMPTS } from "./extraction-job";

export interface ExtractionView {
  id: string;
  conversationId: string;
  userMessageId: string;
  assistantMessageId: string;
  status: ExtractionStatus;
  /** Attempts made (failed ones, plus the successful one). */
  attempts: number;
  maxAttempts: number;
  /** queued after a failed attempt: another attempt will run by itself (at nextAttemptAt, when known). */
  retrying: boolean;
  lastError: string | null;
  nextAttemptAt: Date | null;
  runner: string | null;
  /** Memories created or updated; empty on success = nothing worth keeping. */
  memoryIds: string[];
  /** Of `memoryIds`, those consolidation updated in place (the rest it created). */
  memoriesUpdated: number;
  /** One per memory id, in order: a deleted (or erased) memory shows as deleted, without its text. */
  memories: ExtractionMemory[];
  decisions: StoredDecision[];
  /**
   * What the model received, each call captured at the model boundary: the extraction call, then consolidation's.
   * The latest attempt's: the one that stored the decisions, or while failed or retrying the failed one's.
   */
  modelInput: CapturedCall[];
  queuedAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

export type ExtractionMemory =
  | (Pick<MemoryRecord, "id" | "title" | "content" | "type" | "status" | "provenance"> & { deleted: false })
  /** Deleted since (in the trash, or erased): its text is not shown here (docs/retrieval.md). */
  | { id: string; deleted: true };

export async function toExtractionView(db: Db, row: Extraction): Promise<ExtractionView> {
  const found = await listMemoriesByIds(db, { userId: row.userId, ids: row.memoryIds });
  const byId = new Map(found.map((memory) => [memory.id, memory]));
  return {
    id: row.id,
    conversationId: row.conversationId,
    userMessageId: row.userMessageId,
    assistantMessageId: row.assistantMessageId,
    status: row.status,
    attempts: row.attempts,
    maxAttempts: MAX_EXTRACTION_ATTEMPTS,
    retrying: row.status === "queued" && row.lastError !== null,
    lastError: row.lastError,
    nextAttemptAt: row.nextAttemptAt,
    runner: row.runner,
    memoryIds: row.memoryIds,
    memoriesUpdated: updatedCount(row.decisions as StoredDecision[]),
    memories: row.memoryIds.map((id): ExtractionMemory => {
      const memory = byId.get(id);
      if (!memory || memory.status === "deleted") return { id, deleted: true };
      return {
        id,
        deleted: false,
        title: memory.title,
        content: memory.content,
        type: memory.type,
        status: memory.status,
        provenance: memory.provenance,
      };
    }),
    decisions: row.decisions as StoredDecision[],
    modelInput: row.modelInput as CapturedCall[],
    queuedAt: row.queuedAt,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
  };
}

/** The extraction of the user's pair answered by `assistantMessageId` (404 when missing or foreign). */
export async function getMessageExtraction(
  db: Db,
  { userId, assistantMessageId }: { userId: string; assistantMessageId: string },
): Promise<ExtractionView> {
  return toExtractionView(db, await getExtractionForMessage(db, { userId, assistantMessageId }));
}

/** The memories a stored extraction's decisions updated in place; `transcript.ts` counts the same in SQL. */
export function updatedCount(decisions: readonly Pick<StoredDecision, "action" | "memoryId">[]): number {
  return decisions.filter((decision) => decision.action === "update" && decision.memoryId !== null).length;
}
