/**
 * Where durable jobs (memory extraction) run: Inngest when an Inngest server is configured
 * (INNGEST_EVENT_KEY for Inngest Cloud, INNGEST_DEV=1 for a local dev server), otherwise the
 * in-process runner of the embedded default.
 */
import { isInngestDev, env as processEnv, type RawEnv } from "@/core/env";

export type JobRunnerKind = "inngest" | "in-process";

/** INNGEST_DEV set to anything but "", "0" or "false" (e.g. "1" or the dev server's URL). */
export function inngestDevMode(env: RawEnv = processEnv()): boolean {
  return isInngestDev(env);
}

export function jobRunnerKind(env: RawEnv = processEnv()): JobRunnerKind {
  return env.INNGEST_EVENT_KEY || inngestDevMode(env) ? "inngest" : "in-process";
}
