import type { UIMessage } from "ai";
import type { TranscriptMessage } from "@/lib/chat/transcript";
import type { TurnMetadata } from "@/lib/chat/turn";
import type { Jsonify } from "@/lib/ui/json";

/** A chat message in useChat: its metadata is what POST /api/chat streams at start and finish. */
export type ChatMessage = UIMessage<Jsonify<TurnMetadata>>;

/** A stored message as GET /api/conversations/:id/messages returns it. */
export type TranscriptItem = Jsonify<TranscriptMessage>;

/** What the server knows about a stored message beyond its text (the metadata line reads this). */
export type MessageInfo = Pick<
  TranscriptItem,
  "status" | "error" | "notice" | "debug" | "extraction" | "rating" | "versions"
>;

export type ExtractionSummary = NonNullable<TranscriptItem["extraction"]>;

export interface ChatSettings {
  model: string;
  mode: TurnMetadata["mode"];
  temperature: number;
  memoryEnabled: boolean;
}

/** Stored parts shown again after a reload: tool steps (memory or mailbox) and approval cards. */
const KEPT_PART = /^(?:tool-.+|dynamic-tool|data-mail-approval|data-agent-mailbox)$/;

/** The tool and approval parts of a stored message's parts (its text is rebuilt from its content). */
function storedToolParts(parts: unknown): ChatMessage["parts"] {
  if (!Array.isArray(parts)) return [];
  return parts.filter(
    (part): part is ChatMessage["parts"][number] =>
      typeof part === "object" && part !== null && KEPT_PART.test(String((part as { type?: unknown }).type)),
  );
}

/** Stored messages → useChat messages (the text is the stored content) and their infos by id. */
export function fromTranscript(items: readonly TranscriptItem[]): {
  messages: ChatMessage[];
  infos: Record<string, MessageInfo>;
} {
  const shown = items.filter((item) => item.role === "user" || item.role === "assistant");
  return {
    messages: shown.map((item) => ({
      id: item.id,
      role: item.role as "user" | "assistant",
      parts: [
        // The tool steps the stored message kept (memory tools: ids only), then its text; an
        // agent's approval cards come last whatever their place among the parts (message.tsx).
        ...storedToolParts(item.parts),
        ...(item.content ? [{ type: "text" as const, text: item.content }] : []),
      ],
    })),
    infos: Object.fromEntries(
      shown.map((item) => [
        item.id,
        {
          status: item.status,
          error: item.error,
          notice: item.notice,
          debug: item.debug,
          extraction: item.extraction,
          rating: item.rating,
          versions: item.versions,
        },
      ]),
    ),
  };
}

export function messageText(message: ChatMessage): string {
  return message.parts.map((part) => (part.type === "text" ? part.text : "")).join("");
}

const TERMINAL_EXTRACTION: readonly string[] = ["succeeded", "failed", "skipped"];

export function isTerminalExtraction(status: string): boolean {
  return TERMINAL_EXTRACTION.includes(status);
}

const STORED_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The answer a new message follows: the message shown before it (`messages` ends with the new
 * one), when it is a stored answer. Sent as `parentMessageId`, so the message continues the branch
 * on screen even when another tab made another version current. Ids useChat makes itself are not
 * UUIDs: a message not yet stored gives none, and the server continues its current branch.
 */
export function shownParentId(messages: readonly Pick<ChatMessage, "id" | "role">[]): string | undefined {
  const shown = messages.at(-2);
  return shown?.role === "assistant" && STORED_ID.test(shown.id) ? shown.id : undefined;
}
