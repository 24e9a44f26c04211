/** onFailure marks the row failed when Inngest gives up for a reason the body could not record. */
import { NonRetriableError } from "inngest";
import { extractionConfig } from "@/core/config";
import { markExtractionFailed } from "@/db/queries/extractions";
import { type ExtractionDeps, runExtraction } from "@/lib/jobs/extraction-job";
import { type InngestClient, inngest, messagePairCompleted } from "@/lib/jobs/inngest-client";
import { FinalJobError, type JobSteps } from "@/lib/jobs/steps";
import { processExtractionDeps } from "@/lib/runtime";

interface InngestStepRun {
  run(id: string, fn: () => Promise<unknown>): Promise<unknown>;
}

/** A FinalJobError becomes a NonRetriableError. */
export function inngestSteps(step: InngestStepRun): JobSteps {
  return {
    runner: "inngest",
    run: <T>(id: string, fn: () => Promise<T>) =>
      step.run(id, async () => {
        try {
          return await fn();
        } catch (error) {
          if (error instanceof FinalJobError) throw new NonRetriableError(error.message, { cause: error.cause });
          throw error;
        }
      }) as Promise<T>,
    retryAt: () => null,
  };
}

export function createExtractMemoriesFunction(getDeps: () => Promise<ExtractionDeps>, client: InngestClient = inngest) {
  return client.createFunction(
    {
      id: "extract-memories",
      name: "Extract memories from a message pair",
      triggers: [messagePairCompleted],
      retries: extractionConfig.retries,
      concurrency: { key: "event.data.userId", limit: 1 },
      onFailure: async ({ event, error }) => {
        const deps = await getDeps();
        await markExtractionFailed(deps.db, {
          extractionId: event.data.event.data.extractionId,
          error: `inngest gave up: ${error.message}`,
          now: deps.now(),
        });
      },
    },
    async ({ event, step }) =>
      runExtraction(await getDeps(), { extractionId: event.data.extractionId }, inngestSteps(step)),
  );
}

export const extractMemories = createExtractMemoriesFunction(processExtractionDeps);
