import { AIMessage, AIMessageChunk, type BaseMessage, ToolMessage } from "@langchain/core/messages";
import type { UIMessageChunk } from "ai";
import type { buildAgentGraph } from "./graph";
import { finalAnswer } from "./graph";
import type { Draft, MailboxKind } from "./mailbox/types";
import { contentText, toolResult } from "./messages";
import type { AgentRecorder } from "./recorder";

export interface MailApproval {
  operationId: string;
  draft: Draft;
}

/** Stored so the transcript shows them again after a reload. */
export type AgentPart =
  | {
      type: "dynamic-tool";
      toolCallId: string;
      toolName: string;
      state: "output-available";
      input: unknown;
      output: unknown;
    }
  | { type: "data-mail-approval"; id: string; data: MailApproval }
  | { type: "data-agent-mailbox"; id: string; data: { kind: MailboxKind } }
  | { type: "text"; text: string };

/** Never whole email bodies: the model's full input is in the debug record. */
export function toolOutputSummary(toolName: string, output: unknown): unknown {
  if (output && typeof output === "object" && "error" in output) return output;
  if (toolName === "search_emails" && Array.isArray(output)) {
    return output.map((email: { id: string; from: string; subject: string; date: string; unread?: boolean }) => ({
      id: email.id,
      from: email.from,
      subject: email.subject,
      date: email.date,
      ...(email.unread ? { unread: true } : {}),
    }));
  }
  if (toolName === "read_email" && output && typeof output === "object" && "id" in output) {
    const { id, from, subject, date } = output as { id: string; from: string; subject: string; date: string };
    return { id, from, subject, date };
  }
  if (toolName === "list_drafts" && Array.isArray(output)) {
    return output.map(({ id, to, subject, date }: { id: string; to: string[]; subject: string; date: string }) => ({
      id,
      to,
      subject,
      date,
    }));
  }
  if (toolName === "read_draft" && output && typeof output === "object" && "id" in output) {
    const { id, to, subject, date } = output as { id: string; to: string[]; subject: string; date: string };
    return { id, to, subject, date };
  }
  if (toolName === "create_draft" && output && typeof output === "object" && "id" in output) {
    return { id: (output as { id: string }).id };
  }
  return output;
}

export interface AgentTurnResult {
  text: string;
  parts: AgentPart[];
  messages: BaseMessage[];
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
  /** The caller's array keeps them if the turn is stopped or fails. */
  parts?: AgentPart[];
}): Promise<AgentTurnResult> {
  const parts: AgentPart[] = input.parts ?? [];
  const pendingTools = new Map<string, { toolName: string; input: unknown }>();
  let all: BaseMessage[] = [...input.messages];
  let textId = 0;

  let open: { id: string; text: string } | null = null;
  const closeText = () => {
    if (!open) return;
    input.write({ type: "text-end", id: open.id });
    parts.push({ type: "text", text: open.text });
    open = null;
  };

  // "messages": the agent's model's tokens as they arrive (a model that streams: the configured one);
  // "updates": each node's output — the tool calls, the tools' results, and the whole reply of a model
  // that does not stream (the offline plan model) or of the step limit.
  const stream = await input.graph.stream(
    { messages: input.messages },
    { streamMode: ["updates", "messages"], callbacks: [input.recorder], signal: input.signal },
  );
  try {
    for await (const [mode, payload] of stream as AsyncIterable<[string, unknown]>) {
      if (mode === "messages") {
        const [message, metadata] = payload as [BaseMessage, { langgraph_node?: string } | undefined];
        if (metadata?.langgraph_node !== "agent" || !AIMessageChunk.isInstance(message)) continue;
        const delta = contentText(message);
        if (!delta) continue;
        if (!open) {
          open = { id: `text-${++textId}`, text: "" };
          input.write({ type: "text-start", id: open.id });
        }
        open.text += delta;
        input.write({ type: "text-delta", id: open.id, delta });
        continue;
      }
      for (const [node, value] of Object.entries(payload as Record<string, { messages?: BaseMessage[] }>)) {
        const produced = value?.messages ?? [];
        all = [...all, ...produced];
        for (const message of produced) {
          if (node === "agent" && AIMessage.isInstance(message)) {
            // The reply is complete: its streamed text (said before any tool call it makes) ends here.
            const streamed = open !== null;
            closeText();
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
            if (!streamed && text && (message.tool_calls?.length ?? 0) === 0) {
              const id = `text-${++textId}`;
              input.write({ type: "text-start", id });
              input.write({ type: "text-delta", id, delta: text });
              input.write({ type: "text-end", id });
              parts.push({ type: "text", text });
            }
          } else if (node === "tools" && ToolMessage.isInstance(message)) {
            const result = toolResult(contentText(message));
            const call = pendingTools.get(message.tool_call_id);
            const toolName = call?.toolName ?? message.name ?? "tool";
            const output = toolOutputSummary(toolName, result);
            input.write({ type: "tool-output-available", toolCallId: message.tool_call_id, output, dynamic: true });
            parts.push({
              type: "dynamic-tool",
              toolCallId: message.tool_call_id,
              toolName,
              state: "output-available",
              input: call?.input ?? null,
              output,
            });
            const approval = approvalOf(result);
            if (approval) {
              input.write({ type: "data-mail-approval", id: approval.operationId, data: approval });
              parts.push({ type: "data-mail-approval", id: approval.operationId, data: approval });
            }
          }
        }
      }
    }
    closeText();
  } finally {
    // Stopped or failed mid-reply: the caller's parts keep the text the user already saw.
    const cut = open as { id: string; text: string } | null;
    if (cut) parts.push({ type: "text", text: cut.text });
  }
  return { text: finalAnswer(all), parts, messages: all };
}
