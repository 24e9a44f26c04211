/**
 * The Inngest function `reembed-memories`: on `lifeline/memories.reembed-requested`, re-embeds every
 * memory the configured embedder did not embed (lib/memory/store/reembed.ts), one Inngest step per
 * batch — durable on serverless, where a start-up loop in the function's process would be frozen
 * between requests. One run at a time per embedder (singleton, skip: the many cold starts of a
 * deployment each send the event; the run already going covers them). A step that fails is retried
 * by Inngest; a memory the embedder rejects stays waiting and the run goes on. Inngest caps the
 * steps of one run (1,000), so the batch grows with what waits: at most MAX_BATCHES_PER_RUN batches.
 */
import { countAwaitingEmbedder } from "@/db/queries/reembed";
import { type InngestClient, inngest, memoriesReembedRequested } from "@/lib/jobs/inngest-client";
import {
  DEFAULT_REEMBED_BATCH_SIZE,
  type ReembedBatchResult,
  type ReembedDeps,
  reembedBatch,
} from "@/lib/memory/store/reembed";
import { processReembedDeps } from "@/lib/runtime";

/** At most this many batch steps per run (Inngest allows 1,000 steps per run). */
export const MAX_BATCHES_PER_RUN = 500;
/** The largest batch: an embedding API takes up to 2,048 inputs per call. */
export const MAX_REEMBED_BATCH_SIZE = 2_048;

/** Memories per batch (one embedder call and one UPDATE) when `waiting` wait: the default 64, or more so that one run covers them all. */
export function reembedBatchSize(waiting: number): number {
  return Math.min(
    MAX_REEMBED_BATCH_SIZE,
    Math.max(DEFAULT_REEMBED_BATCH_SIZE, Math.ceil(waiting / (MAX_BATCHES_PER_RUN - 1))),
  );
}

export type ReembedRunResult =
  | {
      status: "done";
      embedder: string;
      waiting: number;
      batchSize: number;
      batches: number;
      reembedded: number;
      skipped: number;
      failed: number;
    }
  | { status: "not-configured"; embedder: string; configured: string };

export function createReembedMemoriesFunction(getDeps: () => Promise<ReembedDeps>, client: InngestClient = inngest) {
  return client.createFunction(
    {
      id: "reembed-memories",
      name: "Re-embed memories for the configured embedder",
      triggers: [memoriesReembedRequested],
      singleton: { key: "event.data.embedder", mode: "skip" },
      retries: 4,
    },
    async ({ event, step }): Promise<ReembedRunResult> => {
      const { db, embedder } = await getDeps();
      // The event names the embedder it was sent for; a deployment that changed embedder again
      // since must not re-embed for the old one (its own start sends its own event).
      if (event.data.embedder !== embedder.model) {
        return { status: "not-configured", embedder: event.data.embedder, configured: embedder.model };
      }
      const waiting = (await step.run("count", () => countAwaitingEmbedder(db, { model: embedder.model }))) as number;
      const batchSize = reembedBatchSize(waiting);
      const totals = { batches: 0, reembedded: 0, skipped: 0, failed: 0 };
      let after: string | null = null;
      for (let index = 0; index < MAX_BATCHES_PER_RUN; index++) {
        const cursor = after;
        const batch = (await step.run(`batch-${index}`, () =>
          reembedBatch(db, embedder, { after: cursor, batchSize }),
        )) as ReembedBatchResult;
        totals.batches += batch.processed > 0 ? 1 : 0;
        totals.reembedded += batch.reembedded;
        totals.skipped += batch.skipped;
        totals.failed += batch.failed;
        if (batch.next === null) break;
        after = batch.next;
      }
      // Memories that still wait (more appeared than counted, or a batch failed for good) wait for
      // the next event: every server start sends one while any wait.
      return { status: "done", embedder: embedder.model, waiting, batchSize, ...totals };
    },
  );
}

export const reembedMemoriesFunction = createReembedMemoriesFunction(processReembedDeps);
