import type { ContextTrace } from "@/lib/memory/retrieval/trace";
import { historySummary } from "@/lib/ui/history-summary";

const SEGMENTS = [
  { key: "instructions", label: "System instructions", className: "bg-brand" },
  { key: "memory", label: "Memory section", className: "bg-emerald-500" },
  { key: "history", label: "History", className: "bg-conversation" },
  { key: "userMessage", label: "Your message", className: "bg-amber-500" },
] as const;

/** Tokens per prompt section (counted when the prompt was built), and the history budget. */
export function TokenBudget({ trace }: { trace: ContextTrace }) {
  const { tokens, history } = trace;
  const values = {
    instructions: Math.max(0, tokens.system - tokens.memory),
    memory: tokens.memory,
    history: tokens.history,
    userMessage: tokens.userMessage,
  };
  const total = Math.max(1, tokens.total);
  const budget = trace.config.prompt.historyTokenBudget;
  const [sent, ...details] = historySummary(history, { tokens: tokens.history, budget });
  return (
    <div className="space-y-4">
      <div
        className="flex h-3 overflow-hidden rounded-full bg-muted"
        role="img"
        aria-label={`${tokens.total} prompt tokens`}
      >
        {SEGMENTS.map(({ key, className }) => (
          <div key={key} className={className} style={{ width: `${(values[key] / total) * 100}%` }} />
        ))}
      </div>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {SEGMENTS.map(({ key, label, className }) => (
          <div key={key} className="rounded-lg border bg-surface px-3 py-2">
            <dt className="flex items-center gap-1.5 text-xs text-muted-foreground">
              <span className={`size-2 rounded-sm ${className}`} aria-hidden="true" />
              {label}
            </dt>
            <dd className="font-mono text-sm tabular-nums">{values[key].toLocaleString("en-US")}</dd>
          </div>
        ))}
      </dl>
      <p className="text-sm text-muted-foreground">
        Total <strong className="font-semibold text-foreground">{tokens.total.toLocaleString("en-US")}</strong> tokens
        of message content. History: {sent}
      </p>
      {details.length > 0 && (
        <ul className="list-disc space-y-1 pl-5 text-sm text-muted-foreground" data-testid="history-cuts">
          {details.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
      <div
        className="h-2 overflow-hidden rounded-full bg-muted"
        role="img"
        aria-label={`History used ${tokens.history} of ${budget} tokens`}
      >
        <div
          className="h-full bg-conversation"
          style={{ width: `${Math.min(100, (tokens.history / budget) * 100)}%` }}
        />
      </div>
    </div>
  );
}
