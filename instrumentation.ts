/**
 * Next calls register() once per server start. On the Node.js runtime (not the edge, not during
 * `next build`) it resumes memory extractions a previous process left unfinished and marks the
 * answers it left `streaming` as interrupted (then keeps looking, periodically), and re-embeds the
 * memories another embedder embedded — in the background, so the server does not wait for it
 * (lib/runtime.ts).
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  const { reembedInBackground, resumeExtractionsInBackground, sweepInterruptedAnswersInBackground } = await import(
    "@/lib/runtime"
  );
  resumeExtractionsInBackground();
  sweepInterruptedAnswersInBackground();
  reembedInBackground();
}
