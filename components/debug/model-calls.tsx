import type { ReactNode } from "react";
import { type ModelCall, ModelInput } from "./model-input";

/**
 * Model calls in order, each as captured at the model boundary: a chat turn's, an extraction's. `after` adds what
 * followed a call (the turn's reply and tool calls); `label` names what a call was for.
 */
export function ModelCallList<C extends ModelCall>({
  calls,
  memoryLines = [],
  label,
  after,
}: {
  calls: readonly C[];
  /** The trace's memory lines, highlighted in a system message. */
  memoryLines?: readonly string[];
  label?: (call: C) => string | null;
  after?: (call: C, index: number) => ReactNode;
}) {
  return (
    <ol className="space-y-6" aria-label="Model calls">
      {calls.map((call, index) => {
        const name = label?.(call);
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: the captured calls are fixed; their order is their identity
          <li key={index} className="space-y-3" data-testid="model-call">
            {(calls.length > 1 || name) && (
              <h3 className="text-sm font-semibold">
                {calls.length > 1 ? `Model call ${index + 1} of ${calls.length}` : "Model call"}
                {name ? ` · ${name}` : ""}
              </h3>
            )}
            <ModelInput call={call} memoryLines={memoryLines} />
            {after?.(call, index)}
          </li>
        );
      })}
    </ol>
  );
}
