/**
 * The Inngest serve endpoint: Inngest (the dev server, or Inngest Cloud with INNGEST_SIGNING_KEY
 * verifying every request) syncs and invokes Lifeline's functions here. When no Inngest server is
 * configured, jobs run in-process and this endpoint does not exist (404).
 *
 * Signatures: without INNGEST_DEV the client is in cloud mode, and inngest's serve() refuses (401)
 * every call without a valid `X-Inngest-Signature` (HMAC-SHA256 of the body's canonical JSON and a timestamp under
 * five minutes old, keyed by INNGEST_SIGNING_KEY or INNGEST_SIGNING_KEY_FALLBACK). A production
 * server refuses to start with INNGEST_DEV set (core/env.ts), so production always verifies.
 * tests/production/deploy.prod.test.ts calls it signed, unsigned and wrongly signed.
 */
import { serve } from "inngest/next";
import { AppError } from "@/core/errors";
import { functions } from "@/inngest/functions";
import { route } from "@/lib/api/route";
import { inngest } from "@/lib/jobs/inngest-client";
import { jobRunnerKind } from "@/lib/jobs/runner-kind";

/**
 * One call may run several steps of a run: Inngest 4 checkpoints by default (the client's
 * `checkpointing`, default true), so the SDK runs the next step in the same request after it
 * checks in each finished one. What bounds a call is each step's own bound — every model call has
 * a timeout and the consolidate step asks at most consolidationConfig.parallelCalls decisions at
 * once (core/config.ts modelCallConfig) — not a step per call. 300 s is Vercel's default and the
 * Hobby plan's ceiling with fluid compute (see app/api/chat/route.ts).
 */
export const maxDuration = 300;

const notConfigured = route({ auth: "public" }, async () => {
  throw new AppError("not_found:route", "Inngest is not configured: jobs run in-process");
});

const handler = jobRunnerKind() === "inngest" ? serve({ client: inngest, functions }) : null;

export const GET = handler?.GET ?? notConfigured;
export const POST = handler?.POST ?? notConfigured;
export const PUT = handler?.PUT ?? notConfigured;
