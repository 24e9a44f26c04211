import { SectionCard } from "@/components/section-card";
import type { ExtractionView } from "@/lib/jobs/extraction-view";
import { plural } from "@/lib/ui/format";
import type { Jsonify } from "@/lib/ui/json";
import { ModelCallList } from "./model-calls";
import type { ModelCall } from "./model-input";

/** The task the call was for, as the call itself says it (its `lifeline` hand-off). */
const TASKS: Record<string, string> = {
  memory_extraction: "extraction: what the exchange adds",
  memory_consolidation: "consolidation: one candidate against the memories near it",
};

function taskOf(call: ModelCall): string | null {
  const options = call.params.providerOptions as { lifeline?: { task?: unknown } } | undefined;
  const task = options?.lifeline?.task;
  return typeof task === "string" ? (TASKS[task] ?? task) : null;
}

function description(extraction: Jsonify<ExtractionView>): string {
  const calls = extraction.modelInput.length;
  const captured = "Captured at the model boundary, after every conversion — not rebuilt.";
  if (extraction.lastError && extraction.status !== "succeeded") {
    return `${captured} The attempt that failed with the error above: its ${plural(calls, "model call")}, in order (a model call that failed is the last).`;
  }
  return calls === 1
    ? `${captured} The one model call of the attempt whose result is shown above: the extraction.`
    : `${captured} The ${calls} model calls of the attempt whose result is shown above, in order: the extraction, then consolidation's.`;
}

/** Why an extraction has no recorded input. */
function none(extraction: Jsonify<ExtractionView>): string {
  if (extraction.status === "skipped") return "Memory was off for this chat: nothing of it is kept.";
  if (extraction.lastError) {
    return "The attempt that failed recorded no model call: it failed before calling the model, or a restart interrupted it.";
  }
  if (extraction.status === "queued" || extraction.status === "running")
    return "Not finished yet: its model calls are recorded when the attempt ends.";
  return "No model call was recorded for this extraction.";
}

/** The extraction's model input, in the same presentation as a chat turn's. */
export function ExtractionInput({ extraction }: { extraction: Jsonify<ExtractionView> | null }) {
  if (!extraction) return null;
  const calls = extraction.modelInput;
  return (
    <SectionCard
      id="extraction-input"
      title="What the extraction model received"
      description={calls.length > 0 ? description(extraction) : undefined}
    >
      {calls.length === 0 ? (
        <p className="text-sm text-muted-foreground">{none(extraction)}</p>
      ) : (
        <ModelCallList calls={calls} label={taskOf} name="Extraction model calls" testId="extraction-model-call" />
      )}
    </SectionCard>
  );
}
