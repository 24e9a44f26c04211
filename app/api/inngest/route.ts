/**
 * The Inngest serve endpoint: Inngest (the dev server, or Inngest Cloud with INNGEST_SIGNING_KEY
 * verifying every request) syncs and invokes Lifeline's functions here. When no Inngest server is
 * configured, jobs run in-process and this endpoint does not exist (404).
 */
import { serve } from "inngest/next";
import { AppError } from "@/core/errors";
import { functions } from "@/inngest/functions";
import { route } from "@/lib/api/route";
import { inngest } from "@/lib/jobs/inngest-client";
import { jobRunnerKind } from "@/lib/jobs/runner-kind";

const notConfigured = route({ auth: "public" }, async () => {
  throw new AppError("not_found:route", "Inngest is not configured: jobs run in-process");
});

const handler = jobRunnerKind() === "inngest" ? serve({ client: inngest, functions }) : null;

export const GET = handler?.GET ?? notConfigured;
export const POST = handler?.POST ?? notConfigured;
export const PUT = handler?.PUT ?? notConfigured;
