/**
 * One agent turn, streamed into the chat as UI message parts: each tool call with its arguments
 * (a dynamic tool part), its result, a pending send as an approval card (`data-mail-approval`),
 * and the answer's text. Returns what the turn produced, for the message row and the debug record.
 */
import { AIMessage, type BaseMessage, ToolMessage } from "@langchain/core/messages";
import type { UIMessageChunk } from "ai";
import type { buildAgentGraph } from "./graph";
import { finalAnswer } from "./graph";
import type { Draft } from "./mailbox/types";
import type { AgentRecorder } from "./recorder";

export interface MailApproval {
  operationId: string;
  draft: Draft;
}

/** The parts stored with the answer (the transcript shows them again after a reload). */
export type AgentPart =
  | { type: "tool"; toolCallId: string; toolName: string; input: unknown; output: unknown }
  | { type: "approval"; operationId: string; draft: Draft }
  | { type: "text"; text: string };

export interface AgentTurnResult {
  text: string;
  parts: AgentPart[];
  messages: BaseMessage[];
}

function contentText(message: BaseMessage): string {
  return typeof message.content === "string"
    ? message.content
    : message.content.map((part) => ("text" in part && typeof part.text === "string" ? part.text : "")).join("");
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function approvalOf(output: unknown): MailApproval | null {
  if (!output || typeof output !== "object") return null;
  const candidate = output as { status?: unknown; operationId?: unknown; draft?: unknown };
  if (candidate.status !== "awaiting_approval" || typeof candidate.operationId !== "string") return null;
  return { operationId: candidate.operationId, draft: candidate.draft as Draft };
}

export async function streamAgentTurn(input: {
  graph: ReturnType<typeof buildAgentGraph>;
  messages: BaseMessage[];
  recorder: AgentRecorder;
  write: (chunk: UIMessageChunk) => void;
  signal?: AbortSignal;
}): Promise<AgentTurnResult> {
  const parts: AgentPart[] = [];
  const pendingTools = new Map<string, { toolName: string; input: unknown }>();
  let all: BaseMessage[] = [...input.messages];
  let textId = 0;

  const stream = await input.graph.stream(
    { messages: input.messages },
    { streamMode: "updates", callbacks: [input.recorder], signal: input.signal },
  );
  for await (const update of stream) {
    for (const [node, value] of Object.entries(update as Record<string, { messages?: BaseMessage[] }>)) {
      const produced = value?.messages ?? [];
      all = [...all, ...produced];
      for (const message of produced) {
        if (node === "agent" && AIMessage.isInstance(message)) {
          for (const call of message.tool_calls ?? []) {
            const toolCallId = call.id ?? `call-${pendingTools.size + 1}`;
            pendingTools.set(toolCallId, { toolName: call.name, input: call.args });
            input.write({
              type: "tool-input-available",
              toolCallId,
              toolName: call.name,
              input: call.args,
              dynamic: true,
            });
          }
          const text = contentText(message);
          if (text && (message.tool_calls?.length ?? 0) === 0) {
            const id = `text-${++textId}`;
            input.write({ type: "text-start", id });
            input.write({ type: "text-delta", id, delta: text });
            input.write({ type: "text-end", id });
            parts.push({ type: "text", text });
          }
        } else if (node === "tools" && ToolMessage.isInstance(message)) {
          const output = parse(contentText(message));
          const call = pendingTools.get(message.tool_call_id);
          input.write({ type: "tool-output-available", toolCallId: message.tool_call_id, output, dynamic: true });
          parts.push({
            type: "tool",
            toolCallId: message.tool_call_id,
            toolName: call?.toolName ?? message.name ?? "tool",
            input: call?.input ?? null,
            output,
          });
          const approval = approvalOf(output);
          if (approval) {
            input.write({ type: "data-mail-approval", id: approval.operationId, data: approval });
            parts.push({ type: "approval", ...approval });
          }
        }
      }
    }
  }
  return { text: finalAnswer(all), parts, messages: all };
}
