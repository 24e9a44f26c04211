/**
 * Resumable: a memory done no longer waits, so a new run sees only what is left. Each write applies
 * only if the memory is still as read, so a user's edit in between is never overwritten and two runs
 * at once only repeat work.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { Db } from "@/db/client";
import {
  countAwaitingEmbedder,
  type ReembedCandidate,
  type ReembeddedMemory,
  selectReembedBatch,
  writeReembedBatch,
} from "@/db/queries/reembed";
import { EmbeddingOutputError, embedMemoryTexts, type MemoryEmbedder, memoryEmbeddingText } from "./memory-store";

export const DEFAULT_REEMBED_BATCH_SIZE = 64;

export interface ReembedProgress {
  embedder: string;
  /** Waiting when the run started; others may appear meanwhile. */
  total: number;
  /** reembedded + skipped + failed */
  processed: number;
  reembedded: number;
  /** Changed between read and write: left as they are. */
  skipped: number;
  /** They still wait; a later run retries them. */
  failed: number;
  batches: number;
}

export interface ReembedResult extends ReembedProgress {
  aborted: boolean;
  /** The first few only. */
  errors: { memoryId: string; message: string }[];
}

export interface ReembedOptions {
  /** Default 64. */
  batchSize?: number;
  onProgress?: (progress: ReembedProgress) => void;
  /** Checked between batches, so nothing is half-written. */
  signal?: AbortSignal;
  /** Lets a serving app's queries get the database; default 0. */
  pauseMs?: number;
}

const MAX_REPORTED_ERRORS = 10;

/** Throws when the embedder fails for a whole batch (an outage, a bad key); what was written stays. */
export async function reembedMemories(
  db: Db,
  embedder: MemoryEmbedder,
  options: ReembedOptions = {},
): Promise<ReembedResult> {
  const batchSize = options.batchSize ?? DEFAULT_REEMBED_BATCH_SIZE;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new Error(`batchSize must be a positive integer`);
  const progress: ReembedProgress = {
    embedder: embedder.model,
    total: await countAwaitingEmbedder(db, { model: embedder.model }),
    processed: 0,
    reembedded: 0,
    skipped: 0,
    failed: 0,
    batches: 0,
  };
  const errors: ReembedResult["errors"] = [];
  const report = () => options.onProgress?.({ ...progress });
  report();

  let after: string | null = null;
  let aborted = false;
  for (;;) {
    if (options.signal?.aborted) {
      aborted = true;
      break;
    }
    const batch = await reembedBatch(db, embedder, { after, batchSize });
    if (batch.processed === 0) break;
    after = batch.next;
    progress.batches += 1;
    progress.processed += batch.processed;
    progress.reembedded += batch.reembedded;
    progress.skipped += batch.skipped;
    progress.failed += batch.failed;
    errors.push(...batch.errors.slice(0, MAX_REPORTED_ERRORS - errors.length));
    report();

    if (batch.next === null) break;
    await sleep(options.pauseMs ?? 0);
  }
  return { ...progress, aborted, errors };
}

export interface ReembedDeps {
  db: Db;
  embedder: MemoryEmbedder;
}

export interface ReembedBatchResult {
  /** 0 when none was left after the cursor. */
  processed: number;
  reembedded: number;
  skipped: number;
  failed: number;
  errors: { memoryId: string; message: string }[];
  /** null when this batch was the last. */
  next: string | null;
}

/** The cursor moves past failures and skips too, so a run visits each memory once. */
export async function reembedBatch(
  db: Db,
  embedder: MemoryEmbedder,
  { after, batchSize }: { after: string | null; batchSize: number },
): Promise<ReembedBatchResult> {
  const batch = await selectReembedBatch(db, { model: embedder.model, after, limit: batchSize });
  if (batch.length === 0) return { processed: 0, reembedded: 0, skipped: 0, failed: 0, errors: [], next: null };
  const { embedded, failures } = await embedBatch(embedder, batch);
  const written = await writeReembedBatch(db, { model: embedder.model, memories: embedded });
  return {
    processed: batch.length,
    reembedded: written.length,
    skipped: embedded.length - written.length,
    failed: failures.length,
    errors: failures.slice(0, MAX_REPORTED_ERRORS),
    next: batch.length < batchSize ? null : (batch[batch.length - 1]?.id ?? null),
  };
}

/**
 * On failure, each text alone: one text the embedder rejects must not hold back the batch — nor every
 * later run. If none embeds alone and the embedder itself threw, it is failing: that is thrown.
 */
async function embedBatch(
  embedder: MemoryEmbedder,
  batch: readonly ReembedCandidate[],
): Promise<{ embedded: ReembeddedMemory[]; failures: { memoryId: string; message: string }[] }> {
  const embed = (texts: string[]) => embedder.embed(texts);
  try {
    const vectors = await embedMemoryTexts(embed, batch.map(memoryEmbeddingText));
    return { embedded: batch.map((memory, i) => ({ ...memory, vector: vectors[i] ?? [] })), failures: [] };
  } catch (batchError) {
    const embedded: ReembeddedMemory[] = [];
    const failures: { memoryId: string; message: string }[] = [];
    let embedderThrew = false;
    for (const memory of batch) {
      try {
        // A batch of one was that text alone already.
        if (batch.length === 1) throw batchError;
        const [vector] = await embedMemoryTexts(embed, [memoryEmbeddingText(memory)]);
        if (vector) embedded.push({ ...memory, vector });
      } catch (error) {
        embedderThrew ||= !(error instanceof EmbeddingOutputError);
        failures.push({ memoryId: memory.id, message: error instanceof Error ? error.message : String(error) });
      }
    }
    if (embedded.length === 0 && embedderThrew) throw batchError;
    return { embedded, failures };
  }
}
