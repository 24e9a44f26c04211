import { Badge } from "@/components/ui/badge";
import type { AgentDebugStep } from "@/lib/agent/recorder";
import { formatMs } from "@/lib/ui/format";

type AgentToolStep = Extract<AgentDebugStep, { type: "agent-tool" }>;

/** The tool's result as the model received it, pretty-printed when it is JSON. */
function pretty(output: string): string {
  try {
    return JSON.stringify(JSON.parse(output), null, 2);
  } catch {
    return output;
  }
}

export function AgentToolCallCard({ step, afterModelCall }: { step: AgentToolStep; afterModelCall: number }) {
  const failed = step.error !== null || (step.output?.startsWith('{"error"') ?? false);
  return (
    <div
      className="space-y-2 rounded-lg border border-l-4 border-l-semantic bg-surface p-3"
      data-testid="agent-tool-call"
    >
      <div className="flex flex-wrap items-center gap-2 text-xs">
        <span className="font-semibold tracking-wide uppercase">tool call</span>
        <code className="font-mono text-sm break-all">
          {step.name}({JSON.stringify(step.input)})
        </code>
        {failed ? <Badge variant="danger">failed</Badge> : <Badge variant="success">ok</Badge>}
        <span className="text-muted-foreground">
          after model call {afterModelCall} · {formatMs(step.ms)}
        </span>
      </div>
      {step.error && <p className="text-sm text-destructive">{step.error}</p>}
      {step.output !== null && (
        <details className="text-sm">
          <summary className="cursor-pointer text-xs text-muted-foreground">Result sent to the model</summary>
          <pre className="mt-2 max-h-80 overflow-auto rounded border bg-card p-2 font-mono text-xs whitespace-pre-wrap break-words">
            {pretty(step.output)}
          </pre>
        </details>
      )}
    </div>
  );
}
