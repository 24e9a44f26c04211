/** A function of its own, so the user's live `extract-memories` runs never wait behind an import. */
import { extractionConfig, importConfig } from "@/core/config";
import type { ExtractionDeps } from "@/lib/jobs/extraction-job";
import { runImport } from "@/lib/jobs/import-job";
import { type InngestClient, importRequested, inngest } from "@/lib/jobs/inngest-client";
import { processExtractionDeps } from "@/lib/runtime";
import { inngestSteps } from "./extract-memories";

export function createRunImportFunction(getDeps: () => Promise<ExtractionDeps>, client: InngestClient = inngest) {
  return client.createFunction(
    {
      id: "run-import",
      name: "Import conversations: extract memories from each exchange",
      triggers: [importRequested],
      retries: extractionConfig.retries,
      concurrency: { key: "event.data.userId", limit: 1 },
      throttle: { key: "event.data.userId", ...importConfig.throttle },
    },
    async ({ event, step }) => {
      const outcome = await runImport(await getDeps(), { importId: event.data.importId }, inngestSteps(step));
      if (outcome.status === "continue") {
        await step.sendEvent(
          "continue",
          importRequested.create({ importId: event.data.importId, userId: event.data.userId }),
        );
      }
      return outcome;
    },
  );
}

export const runImportFunction = createRunImportFunction(processExtractionDeps);
