/**
 * Between the chat turn's messages (the AI SDK's ModelMessage, as assembleContext builds them) and
 * LangChain's: the agent receives exactly the system message with the memory lines, the
 * token-budgeted history and the new message that the text path sends. And back: each message as
 * the debug record stores it.
 */
import { AIMessage, type BaseMessage, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import type { ModelMessage } from "ai";

function text(content: ModelMessage["content"]): string {
  if (typeof content === "string") return content;
  return content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

export function toLangChainMessages(messages: readonly ModelMessage[]): BaseMessage[] {
  return messages.map((message) => {
    switch (message.role) {
      case "system":
        return new SystemMessage(message.content);
      case "user":
        return new HumanMessage(text(message.content));
      case "assistant":
        return new AIMessage(text(message.content));
      default:
        throw new Error(`toLangChainMessages: the chat turn never sends a ${message.role} message`);
    }
  });
}

/** A message as the debug record keeps it: role, text, and the tool calls or the call it answers. */
export interface RecordedMessage {
  role: "system" | "user" | "assistant" | "tool";
  content: string;
  toolCalls?: { id: string; name: string; args: Record<string, unknown> }[];
  toolCallId?: string;
  name?: string;
}

/** A LangChain message's text (string content, or its text parts joined). */
export function contentText(message: BaseMessage): string {
  return typeof message.content === "string"
    ? message.content
    : message.content.map((part) => ("text" in part && typeof part.text === "string" ? part.text : "")).join("");
}

export function recordMessage(message: BaseMessage): RecordedMessage {
  if (SystemMessage.isInstance(message)) return { role: "system", content: contentText(message) };
  if (HumanMessage.isInstance(message)) return { role: "user", content: contentText(message) };
  if (ToolMessage.isInstance(message)) {
    return { role: "tool", content: contentText(message), toolCallId: message.tool_call_id, name: message.name };
  }
  const calls = AIMessage.isInstance(message) ? (message.tool_calls ?? []) : [];
  return {
    role: "assistant",
    content: contentText(message),
    ...(calls.length > 0
      ? { toolCalls: calls.map((call) => ({ id: call.id ?? "", name: call.name, args: call.args })) }
      : {}),
  };
}

/** A tool's result as the model received it: its JSON value, or the text itself when it is not JSON. */
export function toolResult(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
