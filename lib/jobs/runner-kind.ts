/**
 * Where durable jobs (memory extraction) run: Inngest when an Inngest server is configured
 * (INNGEST_EVENT_KEY for Inngest Cloud, INNGEST_DEV=1 for a local dev server), otherwise the
 * in-process runner of the embedded default.
 */
export type JobRunnerKind = "inngest" | "in-process";

export function jobRunnerKind(env: NodeJS.ProcessEnv = process.env): JobRunnerKind {
  const dev = env.INNGEST_DEV;
  const devEnabled = dev !== undefined && dev !== "" && dev !== "0" && dev !== "false";
  return env.INNGEST_EVENT_KEY || devEnabled ? "inngest" : "in-process";
}
