/**
 * lib/runtime.ts processSweeps on a cron: on serverless no process lives between requests to run a timer.
 * Each sweep is its own step, so one failing is retried without repeating the others.
 */
import { cron } from "inngest";
import { type InngestClient, inngest } from "@/lib/jobs/inngest-client";
import { processSweeps, type Sweeps } from "@/lib/runtime";

/** answerConfig.sweepIntervalMs as a cron schedule. */
export const SWEEPS_CRON = "* * * * *";

export interface SweepsRunResult {
  interruptedAnswers: number;
  interruptedSends: number;
  undispatchedExtractions: number;
  stalledImports: number;
  untitledConversations: number;
  dueRedactions: number;
}

export function createSweepsFunction(getSweeps: () => Sweeps, client: InngestClient = inngest) {
  return client.createFunction(
    {
      id: "sweeps",
      name: "Sweep interrupted answers and email sends, undelivered extractions and titles, stalled imports, closed undo windows",
      triggers: [cron(SWEEPS_CRON)],
      concurrency: { limit: 1 },
      retries: 2,
    },
    async ({ step }): Promise<SweepsRunResult> => {
      const sweeps = getSweeps();
      // Interrupted answers first: the extractions they queue are handed over in that step.
      const interruptedAnswers = (await step.run("interrupted-answers", () => sweeps.interruptedAnswers())) as number;
      const interruptedSends = (await step.run("interrupted-sends", () => sweeps.interruptedSends())) as number;
      const undispatchedExtractions = (await step.run("undispatched-extractions", () =>
        sweeps.undispatchedExtractions(),
      )) as number;
      const stalledImports = (await step.run("stalled-imports", () => sweeps.stalledImports())) as number;
      const untitledConversations = (await step.run("untitled-conversations", () =>
        sweeps.untitledConversations(),
      )) as number;
      const dueRedactions = (await step.run("due-redactions", () => sweeps.dueRedactions())) as number;
      return {
        interruptedAnswers,
        interruptedSends,
        undispatchedExtractions,
        stalledImports,
        untitledConversations,
        dueRedactions,
      };
    },
  );
}

export const sweepsFunction = createSweepsFunction(() => processSweeps());
