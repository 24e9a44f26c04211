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
  name = "Model calls",
  testId = "model-call",
}: {
  calls: readonly C[];
  /** The list's accessible name, and each call's test id: a page may hold the turn's calls and an extraction's. */
  name?: string;
  testId?: string;
  /** The trace's memory lines, highlighted in a system message. */
  memoryLines?: readonly string[];
  label?: (call: C) => string | null;
  after?: (call: C, index: number) => ReactNode;
}) {
  return (
    <ol className="space-y-6" aria-label={name}>
      {calls.map((call, index) => {
        const purpose = label?.(call);
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: the captured calls are fixed; their order is their identity
          <li key={index} className="space-y-3" data-testid={testId}>
            {(calls.length > 1 || purpose) && (
              <h3 className="text-sm font-semibold">
                {calls.length > 1 ? `Model call ${index + 1} of ${calls.length}` : "Model call"}
                {purpose ? ` · ${purpose}` : ""}
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
