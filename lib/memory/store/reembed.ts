/**
 * Re-embedding every memory for a new embedder. Vectors of different embedders are not comparable,
 * so after the embedder changes, retrieval cannot compare the memories the old one embedded (the
 * trace counts them as `waitingForReembedding`) until they are embedded again — by
 * `npm run memories:reembed` (scripts/reembed.ts) or the job a server start runs (lib/runtime.ts).
 *
 * - Batched, by id (keyset pagination): one SELECT, one embedder call and one UPDATE per batch.
 * - Resumable: a memory done no longer waits, so a new run (after an interruption, a failure, a
 *   crash) sees only what is left.
 * - Safe beside a serving app and a second run: each write applies only if the memory is still as
 *   read (db/queries/reembed.ts), so a user's edit in between is never overwritten and two runs
 *   at once only repeat work.
 * - The same text and checks as every other writer of memories.embedding (memory-store.ts).
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
  /** The embedder memories are re-embedded with ("offline/hash-ngram-v1"). */
  embedder: string;
  /** Memories waiting when the run started (the progress bar's end; others may appear meanwhile). */
  total: number;
  /** Memories read so far: reembedded + skipped + failed. */
  processed: number;
  /** Given a vector of `embedder`. */
  reembedded: number;
  /** Changed between read and write (edited, or re-embedded by another run): left as they are. */
  skipped: number;
  /** The embedder could not embed them; they still wait (a later run retries them). */
  failed: number;
  batches: number;
}

export interface ReembedResult extends ReembedProgress {
  /** true: the signal stopped the run before every batch was done (a new run resumes). */
  aborted: boolean;
  /** The first few embedding failures: which memory, and why. */
  errors: { memoryId: string; message: string }[];
}

export interface ReembedOptions {
  /** Memories per batch (per embedder call and per UPDATE); default 64. */
  batchSize?: number;
  /** Called once before the first batch and after every batch. */
  onProgress?: (progress: ReembedProgress) => void;
  /** Checked before every batch: an aborted run stops between batches, with nothing half-written. */
  signal?: AbortSignal;
  /** Pause between batches, so that other work (a serving app's queries) gets the database; default 0. */
  pauseMs?: number;
}

const MAX_REPORTED_ERRORS = 10;

/**
 * Re-embeds every memory (any user, any status, except those with no text) whose embedding is not
 * `embedder`'s. Throws when the embedder fails for a whole batch (an outage, a bad key): what was
 * written stays, and a new run continues. A batch where only some texts fail is retried text by
 * text; the ones that still fail are counted in `failed` and left waiting.
 */
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
    // Let the rest of the process (requests, the in-process runner) run between batches.
    await sleep(options.pauseMs ?? 0);
  }
  return { ...progress, aborted, errors };
}

export interface ReembedDeps {
  db: Db;
  embedder: MemoryEmbedder;
}

export interface ReembedBatchResult {
  /** Memories read: reembedded + skipped + failed; 0 when none was left after the cursor. */
  processed: number;
  reembedded: number;
  skipped: number;
  failed: number;
  errors: { memoryId: string; message: string }[];
  /** The cursor for the next batch (the last id read), or null when this batch was the last. */
  next: string | null;
}

/**
 * One batch of a re-embedding run: the next `batchSize` memories after the cursor (`after`, an id;
 * null for the first batch) that `embedder` did not embed, embedded in one call and written in one
 * UPDATE. The cursor moves past failures and skips too, so a run visits each memory once. A run is
 * these batches in a row: reembedMemories in this process, or one Inngest step each
 * (inngest/functions/reembed-memories.ts).
 */
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
 * One embedder call for the batch. If it fails, each text alone: one text the embedder rejects (too
 * long, a zero vector) must not hold back the batch — nor, since every run would stop there, every
 * run after it. When no text can be embedded alone either and the embedder itself threw (not just
 * returned an unusable vector), the embedder is failing (an outage, a bad key): that is thrown.
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
