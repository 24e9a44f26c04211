/**
 * Each exchange runs through the extraction job itself, so an import gets the same provenance rules
 * and store guard as a live exchange. Durability is the rows': a stopped run resumes at the first row
 * still queued or running; a failed row goes behind the others (fewest attempts first).
 */
import { importConfig } from "@/core/config";
import { finishImport, nextImportExtraction } from "@/db/queries/imports";
import { type ExtractionDeps, runExtraction } from "./extraction-job";
import type { JobSteps } from "./steps";

export type ImportRunOutcome = { importId: string; status: "done" | "continue" | "not-running"; ran: number };

export interface ImportRunOptions {
  pairsPerRun?: number;
  /** Before the next exchange is picked: lets live chat go first. */
  beforePick?: () => Promise<void>;
  /** Lets live chat and the user's live extractions go first. */
  beforeExchange?: (userId: string) => Promise<void>;
  /** Before each step of an exchange (load, extract, embed, consolidate, store): lets a chat turn go first. */
  beforeStep?: () => Promise<void>;
}

/** A retry happens when the row is picked again. */
function exchangeSteps(runner: JobSteps["runner"], beforeStep?: () => Promise<void>): JobSteps {
  return {
    runner,
    run: async (_id, fn) => {
      if (beforeStep) await beforeStep();
      return fn();
    },
    retryAt: (_failed, now) => now,
  };
}

export async function runImport(
  deps: ExtractionDeps,
  { importId }: { importId: string },
  steps: JobSteps,
  { pairsPerRun = importConfig.pairsPerRun, beforePick, beforeExchange, beforeStep }: ImportRunOptions = {},
): Promise<ImportRunOutcome> {
  for (let i = 0; i < pairsPerRun; i++) {
    if (beforePick) await beforePick();
    const next = await steps.run(`next-${i}`, () => nextImportExtraction(deps.db, { importId }));
    if (!next) {
      const status = await steps.run("finish", () => finishImport(deps.db, { importId, now: deps.now() }));
      return { importId, status: status === "done" ? "done" : "not-running", ran: i };
    }
    if (beforeExchange) await beforeExchange(next.userId);
    await steps.run(`extract-${i}`, async () => {
      try {
        return (await runExtraction(deps, { extractionId: next.extractionId }, exchangeSteps(steps.runner, beforeStep)))
          .status;
      } catch {
        // The extraction job has recorded the failed attempt on its row; the next pick retries it.
        return "attempt-failed";
      }
    });
  }
  return { importId, status: "continue", ran: pairsPerRun };
}
