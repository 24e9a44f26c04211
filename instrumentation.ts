/**
 * Runs once per server start, lazily before the first request. Configuration errors throw (Next logs them and
 * fails every request); a missing pgvector is logged, not thrown, since a database down now may be back for
 * the next request. The background work (lib/runtime.ts) never delays the server. `process.env.NEXT_RUNTIME`
 * is replaced at build time, so the edge bundle leaves out the Node.js-only imports.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { assertSafeDeployment, env } = await import("@/core/env");
  if (env().NEXT_PHASE === "phase-production-build") return;
  // Tracing first, so the start-up work below is traced too.
  const { registerOTel } = await import("@vercel/otel");
  registerOTel({ serviceName: "lifeline" });
  assertSafeDeployment();
  const {
    checkDatabaseInBackground,
    reembedInBackground,
    resumeExtractionsInBackground,
    sweepInterruptedAnswersInBackground,
  } = await import("@/lib/runtime");
  checkDatabaseInBackground();
  resumeExtractionsInBackground();
  sweepInterruptedAnswersInBackground();
  reembedInBackground();
}
