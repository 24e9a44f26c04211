import { eventType, Inngest, type Logger } from "inngest";
import { z } from "zod";
import { logger } from "@/core/logger";
import { inngestDevMode } from "./runner-kind";

export function createInngestClient(options: { log?: Logger; fetch?: typeof fetch; baseUrl?: string } = {}) {
  return new Inngest({
    id: "lifeline",
    isDev: inngestDevMode(),
    logger: options.log ?? logger.child({ component: "inngest" }),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
  });
}

export type InngestClient = ReturnType<typeof createInngestClient>;

export const inngest: InngestClient = createInngestClient();

/** The row holds the rest; the user id is the key of the per-user concurrency limit. */
export const messagePairCompleted = eventType("lifeline/message-pair.completed", {
  schema: z.object({ extractionId: z.uuid(), userId: z.uuid() }),
});

export const memoriesReembedRequested = eventType("lifeline/memories.reembed-requested", {
  schema: z.object({ embedder: z.string().min(1) }),
});

/** Also sent to continue: each run handles at most importConfig.pairsPerRun exchanges. */
export const importRequested = eventType("lifeline/import.requested", {
  schema: z.object({ importId: z.uuid(), userId: z.uuid() }),
});
