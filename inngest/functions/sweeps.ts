/**
 * The Inngest function `sweeps`: every minute (a cron trigger, SWEEPS_CRON), the sweeps a
 * long-lived server runs from a timer (lib/runtime.ts processSweeps) — answers left `streaming`
 * by a killed function become interrupted and get their extraction, email sends left `approved`
 * become interrupted, extractions left `queued` without a hand-over are handed to Inngest,
 * title jobs left waiting run, and deleted memories past their undo window lose their text from
 * the records derived from them.
 * On a serverless deployment (Vercel) no process lives between requests to run the timer: this
 * function is what runs them. One run at a time (a slow minute never overlaps the next); each
 * sweep is its own step, so one failing is retried without repeating the others, and a run that
 * gives up leaves the work to the next minute's.
 */
import { cron } from "inngest";
import { type InngestClient, inngest } from "@/lib/jobs/inngest-client";
import { processSweeps, type Sweeps } from "@/lib/runtime";

/** Every minute: answerConfig.sweepIntervalMs, as a cron schedule. */
export const SWEEPS_CRON = "* * * * *";

export interface SweepsRunResult {
  interruptedAnswers: number;
  interruptedSends: number;
  undispatchedExtractions: number;
  untitledConversations: number;
  dueRedactions: number;
}

export function createSweepsFunction(getSweeps: () => Sweeps, client: InngestClient = inngest) {
  return client.createFunction(
    {
      id: "sweeps",
      name: "Sweep interrupted answers and email sends, undelivered extractions and titles, closed undo windows",
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
      const untitledConversations = (await step.run("untitled-conversations", () =>
        sweeps.untitledConversations(),
      )) as number;
      const dueRedactions = (await step.run("due-redactions", () => sweeps.dueRedactions())) as number;
      return { interruptedAnswers, interruptedSends, undispatchedExtractions, untitledConversations, dueRedactions };
    },
  );
}

export const sweepsFunction = createSweepsFunction(() => processSweeps());
