/**
 * The Inngest client of Lifeline and the events it sends. Dev mode (no signing, the local dev
 * server on :8288 or the URL in INNGEST_DEV) follows INNGEST_DEV; otherwise Inngest Cloud with
 * INNGEST_EVENT_KEY and INNGEST_SIGNING_KEY. Without either, jobs run in-process instead
 * (lib/jobs/runner-kind.ts) and nothing is sent here.
 */
import { eventType, Inngest, type Logger } from "inngest";
import { z } from "zod";
import { logger } from "@/core/logger";
import { inngestDevMode } from "./runner-kind";

/** A Lifeline client; `log` replaces the app logger and `fetch` the network (tests). */
export function createInngestClient(options: { log?: Logger; fetch?: typeof fetch } = {}) {
  return new Inngest({
    id: "lifeline",
    isDev: inngestDevMode(),
    logger: options.log ?? logger.child({ component: "inngest" }),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}

export type InngestClient = ReturnType<typeof createInngestClient>;

export const inngest: InngestClient = createInngestClient();

/**
 * A user message and its assistant answer were saved and their memory_extractions row written.
 * The row holds the rest (messages, conversation, attempts), so the event carries only its id —
 * and the user id, the key of the per-user concurrency limit.
 */
export const messagePairCompleted = eventType("lifeline/message-pair.completed", {
  schema: z.object({ extractionId: z.uuid(), userId: z.uuid() }),
});

/**
 * Memories wait for re-embedding by `embedder` (the deployment's embedder changed): a server start
 * with Inngest sends it (lib/runtime.ts), and `reembed-memories` re-embeds them batch by batch.
 */
export const memoriesReembedRequested = eventType("lifeline/memories.reembed-requested", {
  schema: z.object({ embedder: z.string().min(1) }),
});

/**
 * An import's conversations are written and its job should run (or continue: each run handles at
 * most importConfig.pairsPerRun exchanges, then requests the next run).
 */
export const importRequested = eventType("lifeline/import.requested", {
  schema: z.object({ importId: z.uuid(), userId: z.uuid() }),
});
