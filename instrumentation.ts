/**
 * Next calls register() once per server start. On the Node.js runtime (not the edge, not during
 * `next build`) it resumes memory extractions a previous process left unfinished — in the
 * background, so the server does not wait for it (lib/jobs/resume.ts).
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  const { resumeExtractionsInBackground } = await import("@/lib/jobs/resume");
  resumeExtractionsInBackground();
}
