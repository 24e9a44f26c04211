import { Badge } from "@/components/ui/badge";
import { DELETED_MEMORY_LINE } from "@/core/deleted-memory";
import { cn } from "@/lib/ui/cn";

/** A message of a captured prompt: the AI SDK's (text path) or the agent recorder's (with its tool calls). */
interface PromptMessage {
  role: string;
  content: unknown;
  toolCalls?: { name: string; args: unknown }[];
}

/** A model call as the debug record stores it (lib/ai/capture.ts CapturedCall, lib/agent/recorder.ts agent-model). */
export interface ModelCall {
  type: string;
  provider: string;
  modelId: string;
  params: Record<string, unknown>;
}

/** A message's text, then the tool calls it made (an agent model's reply). */
export function messageText(message: PromptMessage): string {
  const calls = (message.toolCalls ?? []).map((call) => `→ ${call.name}(${JSON.stringify(call.args ?? {})})`);
  return [contentText(message.content), ...calls].filter(Boolean).join("\n");
}

/** A captured prompt message's content as text: a string (system) or the text of its parts. */
function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return JSON.stringify(content, null, 2);
  return content
    .map((part: { type?: string; text?: string; toolName?: string; input?: unknown; output?: unknown }) => {
      if (part.type === "text") return part.text ?? "";
      // A memory tool step: the call the model made, and the result it received.
      if (part.type === "tool-call") return `→ ${part.toolName}(${JSON.stringify(part.input ?? {})})`;
      if (part.type === "tool-result") {
        const output = part.output as { type?: string; value?: unknown } | undefined;
        return `← ${part.toolName}: ${JSON.stringify(output?.value ?? output, null, 2)}`;
      }
      return `[${part.type ?? "part"}]`;
    })
    .join("\n");
}

const ROLE_STYLES: Record<string, string> = {
  system: "border-l-brand",
  user: "border-l-foreground/40",
  assistant: "border-l-conversation",
  tool: "border-l-semantic",
};

/** The system message, with the memory lines the trace lists as sent highlighted. */
function SystemText({ text, memoryLines }: { text: string; memoryLines: ReadonlySet<string> }) {
  return (
    <div className="font-mono text-[12.5px] leading-relaxed whitespace-pre-wrap break-words">
      {text.split("\n").map((line, index) => {
        const key = `${index}:${line}`;
        if (line === DELETED_MEMORY_LINE) {
          return (
            <div
              key={key}
              className="-mx-2 flex items-start gap-2 rounded px-2 text-muted-foreground"
              data-testid="memory-line"
            >
              <span className="flex-1">{line}</span>
              <Badge
                variant="outline"
                className="mt-0.5 shrink-0"
                title="The model received this memory's text; the memory was deleted since, and so was its text here."
              >
                deleted memory
              </Badge>
            </div>
          );
        }
        if (memoryLines.has(line)) {
          return (
            <div key={key} className="-mx-2 flex items-start gap-2 rounded bg-highlight px-2" data-testid="memory-line">
              <mark className="flex-1 bg-transparent text-foreground">{line}</mark>
              <Badge variant="success" className="mt-0.5 shrink-0">
                memory
              </Badge>
            </div>
          );
        }
        if (line.startsWith("## ")) {
          return (
            <div key={key} className="font-semibold text-brand">
              {line}
            </div>
          );
        }
        return <div key={key}>{line || "\u00a0"}</div>;
      })}
    </div>
  );
}

/** One model call's input, message by message, exactly as captured at the model boundary. */
export function ModelInput({ call, memoryLines }: { call: ModelCall; memoryLines: readonly string[] }) {
  const prompt = (Array.isArray(call.params.prompt) ? call.params.prompt : []) as PromptMessage[];
  const lines = new Set(memoryLines);
  const { prompt: _prompt, ...settings } = call.params;
  return (
    <div className="space-y-3">
      <ol className="space-y-3" aria-label="Messages sent to the model">
        {prompt.map((message, index) => (
          <li
            // biome-ignore lint/suspicious/noArrayIndexKey: the captured prompt is fixed; its order is its identity
            key={index}
            className={cn(
              "rounded-lg border border-l-4 bg-surface p-3",
              ROLE_STYLES[message.role] ?? "border-l-border",
            )}
          >
            <div className="mb-2 flex items-center gap-2 text-xs">
              <span className="font-semibold tracking-wide uppercase">{message.role}</span>
              <span className="text-muted-foreground">#{index + 1}</span>
            </div>
            {message.role === "system" ? (
              <SystemText text={contentText(message.content)} memoryLines={lines} />
            ) : (
              <div className="text-sm whitespace-pre-wrap break-words">{messageText(message)}</div>
            )}
          </li>
        ))}
      </ol>
      <details className="rounded-lg border bg-surface p-3 text-sm">
        <summary className="cursor-pointer font-medium">
          Call settings ({call.type}, {call.provider}/{call.modelId})
        </summary>
        <pre className="mt-2 overflow-x-auto font-mono text-xs">{JSON.stringify(settings, null, 2)}</pre>
      </details>
    </div>
  );
}
