/**
 * Claude's data export (`conversations.json`): an array of conversations ({ uuid, name,
 * created_at, chat_messages }), each message { uuid, sender: "human" | "assistant", text,
 * content: blocks, created_at, attachments, files }. The text blocks are the message; tool use,
 * tool results and thinking blocks are skipped; images and files become a placeholder.
 */
import {
  cleanText,
  type ImportedConversation,
  type ImportedMessage,
  ImportFormatError,
  isoDate,
  isRecord,
  type ParsedExport,
  SkipTally,
  withinLimits,
} from "./types";

export function isClaudeExport(value: unknown): value is unknown[] {
  return Array.isArray(value) && value.length > 0 && value.every((item) => isRecord(item) && "chat_messages" in item);
}

function fileNames(message: Record<string, unknown>): string[] {
  const names: string[] = [];
  for (const key of ["attachments", "files"]) {
    const list = message[key];
    if (!Array.isArray(list)) continue;
    for (const file of list) {
      if (isRecord(file) && typeof file.file_name === "string") names.push(`[file: ${file.file_name}]`);
    }
  }
  return names;
}

function messageText(message: Record<string, unknown>, skipped: SkipTally): string {
  const pieces: string[] = [];
  const blocks = Array.isArray(message.content) ? message.content : [];
  for (const block of blocks) {
    if (!isRecord(block)) continue;
    if (block.type === "text" && typeof block.text === "string") pieces.push(block.text);
    else if (block.type === "image") pieces.push("[image]");
    else if (block.type === "tool_use") skipped.add("tool use");
    else if (block.type === "tool_result") skipped.add("tool result");
    else if (block.type === "thinking") skipped.add("model reasoning");
    else skipped.add(`${String(block.type ?? "untyped")} block`);
  }
  if (pieces.length === 0 && typeof message.text === "string") pieces.push(message.text);
  pieces.push(...fileNames(message));
  return cleanText(pieces.filter((piece) => piece.length > 0).join("\n"));
}

export function parseClaudeConversations(value: unknown, limits: { maxMessageChars: number }): ParsedExport {
  if (!Array.isArray(value)) throw new ImportFormatError("conversations.json is not a list of conversations.");
  const skipped = new SkipTally();
  const conversations: ImportedConversation[] = [];
  value.forEach((raw, index) => {
    if (!isRecord(raw)) throw new ImportFormatError(`Conversation ${index + 1} is not an object.`);
    const title = cleanText(typeof raw.name === "string" ? raw.name : "") || "Untitled";
    if (typeof raw.uuid !== "string")
      throw new ImportFormatError(`Conversation ${index + 1} ("${title}") has no uuid.`);
    if (!Array.isArray(raw.chat_messages))
      throw new ImportFormatError(`Conversation "${title}" has no chat_messages list.`);
    const conversationDate = isoDate(raw.created_at) ?? new Date(0).toISOString();
    const messages: ImportedMessage[] = [];
    raw.chat_messages.forEach((message, position) => {
      if (!isRecord(message)) throw new ImportFormatError(`Message ${position + 1} of "${title}" is not an object.`);
      const role = message.sender === "human" ? "user" : message.sender === "assistant" ? "assistant" : null;
      if (!role) {
        skipped.add(`${String(message.sender ?? "unknown")} message`);
        return;
      }
      const text = messageText(message, skipped);
      if (text.length === 0) {
        skipped.add("empty message");
        return;
      }
      messages.push({
        sourceId: typeof message.uuid === "string" ? message.uuid : `${raw.uuid}:${position}`,
        role,
        text,
        createdAt: isoDate(message.created_at) ?? conversationDate,
      });
    });
    const kept = withinLimits(messages, limits, skipped);
    if (!kept.some((message) => message.role === "user")) {
      skipped.add("conversation without a user message");
      return;
    }
    conversations.push({ sourceId: raw.uuid, title, createdAt: conversationDate, messages: kept });
  });
  return { source: "claude", conversations, skipped: skipped.list() };
}
