/**
 * One step per batch: durable on serverless, where a start-up loop would be frozen between requests. A
 * singleton per embedder, since every cold start sends the event; a memory the embedder rejects stays waiting.
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

/** Inngest allows 1,000 steps per run. */
export const MAX_BATCHES_PER_RUN = 500;
/** An embedding API takes up to 2,048 inputs per call. */
export const MAX_REEMBED_BATCH_SIZE = 2_048;

/** The default 64, or more so that one run covers every waiting memory. */
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
      // A deployment that changed embedder again since must not re-embed for the old one.
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
      // What still waits waits for the next event: every server start sends one while any wait.
      return { status: "done", embedder: embedder.model, waiting, batchSize, ...totals };
    },
  );
}

export const reembedMemoriesFunction = createReembedMemoriesFunction(processReembedDeps);
