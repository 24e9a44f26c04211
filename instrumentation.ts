/**
 * Next calls register() once per server start — with `next start` (Next 16), lazily, just before
 * the first request is handled. On the Node.js runtime (not the edge, not during `next build`) it
 * first validates the configuration (core/env.ts): a malformed variable, or a production server
 * on the embedded defaults (no DATABASE_URL, no Inngest, no AUTH_SECRET) throws, naming each
 * variable — Next logs it and then fails every request; the request edges check again in case
 * register() did not run (docs/deploy.md). On Postgres it opens the database at once, so a server
 * without pgvector is reported at start, naming DATABASE_URL and the fix (logged, not thrown: a
 * database that is down now may be back for the next request). Then it resumes memory extractions a previous process
 * left unfinished and marks the answers it left `streaming` as interrupted (then keeps looking,
 * periodically), and re-embeds the memories another embedder embedded — in the background, so the
 * server does not wait for it (lib/runtime.ts). Before all that it registers OpenTelemetry
 * (`@vercel/otel`; core/telemetry.ts says where spans go).
 *
 * `process.env.NEXT_RUNTIME` is the one environment read outside core/env.ts: Next replaces it at
 * build time, so the edge bundle leaves out the Node.js-only imports below.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { assertSafeDeployment, env } = await import("@/core/env");
  if (env().NEXT_PHASE === "phase-production-build") return;
  // Tracing first, so the start-up work below is traced too (core/telemetry.ts): Vercel's collector
  // on Vercel, OTEL_EXPORTER_OTLP_ENDPOINT when set, else spans go nowhere.
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
