/**
 * The import job — ONE body for both runners (Inngest's `run-import` function and the in-process
 * import runner). Each run takes the import's extractions one at a time, oldest exchange first,
 * and runs each through the extraction job itself (lib/jobs/extraction-job.ts: the same prompts,
 * provenance rules, consolidation and store guard as a live exchange), inside one step:
 *
 *   next-0 → extract-0 → next-1 → extract-1 … (at most importConfig.pairsPerRun) → finish | continue
 *
 * Durability is the rows': an extraction's status says whether it ran, so a run that stops (a
 * kill, a deploy) resumes at the first row still queued or running, and the store step's guard
 * keeps a pair to one store however often it is retried. A failed attempt is recorded on the row
 * and the row goes behind the others (fewest attempts first); spent attempts leave it `failed`,
 * listed with its conversation in the import's progress.
 */
import { importConfig } from "@/core/config";
import { finishImport, nextImportExtraction } from "@/db/queries/imports";
import { type ExtractionDeps, runExtraction } from "./extraction-job";
import type { JobSteps } from "./steps";

export type ImportRunOutcome = { importId: string; status: "done" | "continue" | "not-running"; ran: number };

export interface ImportRunOptions {
  pairsPerRun?: number;
  /** Awaited before each exchange: the in-process runner lets the user's live extractions go first. */
  beforeExchange?: (userId: string) => Promise<void>;
}

/** The steps an exchange's extraction runs with inside the import's step: run now, retry when picked again. */
function exchangeSteps(runner: JobSteps["runner"]): JobSteps {
  return { runner, run: (_id, fn) => fn(), retryAt: (_failed, now) => now };
}

export async function runImport(
  deps: ExtractionDeps,
  { importId }: { importId: string },
  steps: JobSteps,
  { pairsPerRun = importConfig.pairsPerRun, beforeExchange }: ImportRunOptions = {},
): Promise<ImportRunOutcome> {
  for (let i = 0; i < pairsPerRun; i++) {
    const next = await steps.run(`next-${i}`, () => nextImportExtraction(deps.db, { importId }));
    if (!next) {
      const status = await steps.run("finish", () => finishImport(deps.db, { importId, now: deps.now() }));
      return { importId, status: status === "done" ? "done" : "not-running", ran: i };
    }
    if (beforeExchange) await beforeExchange(next.userId);
    await steps.run(`extract-${i}`, async () => {
      try {
        return (await runExtraction(deps, { extractionId: next.extractionId }, exchangeSteps(steps.runner))).status;
      } catch {
        // The extraction job has recorded the failed attempt on its row; the next pick retries it.
        return "attempt-failed";
      }
    });
  }
  return { importId, status: "continue", ran: pairsPerRun };
}
