/**
 * Without INNGEST_DEV the client is in cloud mode and serve() refuses (401) any call without a valid
 * `X-Inngest-Signature`; production refuses INNGEST_DEV (core/env.ts), so production always verifies.
 */
import { serve } from "inngest/next";
import { AppError } from "@/core/errors";
import { functions } from "@/inngest/functions";
import { route } from "@/lib/api/route";
import { inngest } from "@/lib/jobs/inngest-client";
import { jobRunnerKind } from "@/lib/jobs/runner-kind";

/**
 * Inngest 4 checkpoints, running several steps per call, so each step's own timeout bounds a call. 300 s is
 * Vercel's default and the Hobby plan's ceiling with fluid compute.
 */
export const maxDuration = 300;

const notConfigured = route({ auth: "public" }, async () => {
  throw new AppError("not_found:route", "Inngest is not configured: jobs run in-process");
});

const handler = jobRunnerKind() === "inngest" ? serve({ client: inngest, functions }) : null;

export const GET = handler?.GET ?? notConfigured;
export const POST = handler?.POST ?? notConfigured;
export const PUT = handler?.PUT ?? notConfigured;
