/**
 * ChatGPT's data export (`conversations.json`): an array of conversations, each a `mapping` of
 * nodes ({ id, message, parent, children }) forming a tree — an edited question or a regenerated
 * answer is a sibling branch. The conversation as the user left it is the path from `current_node`
 * up to the root; other branches are counted as skipped. Only user and assistant text is kept:
 * system, tool and hidden messages, tool calls and the model's reasoning are skipped; images and
 * files become a placeholder (never fetched).
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

interface Node {
  message?: unknown;
  parent?: unknown;
  children?: unknown;
}

/** Whether `value` looks like a ChatGPT conversations.json (an array of objects with a `mapping`). */
export function isChatGptExport(value: unknown): value is unknown[] {
  return Array.isArray(value) && value.length > 0 && value.every((item) => isRecord(item) && "mapping" in item);
}

function placeholder(part: Record<string, unknown>): string {
  const type = typeof part.content_type === "string" ? part.content_type : "";
  if (type === "image_asset_pointer") return "[image]";
  if (type === "audio_transcription" && typeof part.text === "string") return part.text;
  if (type.startsWith("audio")) return "[audio]";
  return "[attachment]";
}

/** The message's text, or the reason it is skipped. */
function messageText(message: Record<string, unknown>): { text: string } | { skip: string } {
  const author = isRecord(message.author) ? message.author : {};
  const role = author.role;
  if (role === "system") return { skip: "system message" };
  if (role === "tool") return { skip: "tool message" };
  if (role !== "user" && role !== "assistant") return { skip: "message without a user or assistant author" };
  const metadata = isRecord(message.metadata) ? message.metadata : {};
  if (metadata.is_visually_hidden_from_conversation === true) return { skip: "hidden message" };
  if (typeof message.recipient === "string" && message.recipient !== "all") return { skip: "tool call" };

  const content = isRecord(message.content) ? message.content : {};
  const type = content.content_type;
  if (type === "thoughts" || type === "reasoning_recap") return { skip: "model reasoning" };
  if (type === "user_editable_context") return { skip: "custom instructions" };
  if (type !== "text" && type !== "multimodal_text") return { skip: `${String(type ?? "untyped")} content` };

  const parts = Array.isArray(content.parts) ? content.parts : [];
  const pieces = parts.map((part) => (typeof part === "string" ? part : isRecord(part) ? placeholder(part) : ""));
  const attachments = Array.isArray(metadata.attachments) ? metadata.attachments : [];
  for (const attachment of attachments) {
    if (isRecord(attachment) && typeof attachment.name === "string") pieces.push(`[file: ${attachment.name}]`);
  }
  const text = cleanText(pieces.filter((piece) => piece.length > 0).join("\n"));
  return text.length === 0 ? { skip: "empty message" } : { text };
}

function startNode(mapping: Record<string, Node>, currentNode: unknown): string | null {
  if (typeof currentNode === "string" && currentNode in mapping) return currentNode;
  // No current_node: the newest leaf is the version last shown.
  let best: { id: string; time: number } | null = null;
  for (const [id, node] of Object.entries(mapping)) {
    const children = Array.isArray(node.children) ? node.children : [];
    if (children.length > 0) continue;
    const message = isRecord(node.message) ? node.message : {};
    const time = typeof message.create_time === "number" ? message.create_time : 0;
    if (!best || time >= best.time) best = { id, time };
  }
  return best?.id ?? null;
}

function conversationOf(
  raw: Record<string, unknown>,
  index: number,
  limits: { maxMessageChars: number },
  skipped: SkipTally,
): ImportedConversation | null {
  const sourceId =
    typeof raw.conversation_id === "string" ? raw.conversation_id : typeof raw.id === "string" ? raw.id : null;
  const title = cleanText(typeof raw.title === "string" ? raw.title : "") || "Untitled";
  if (!sourceId) throw new ImportFormatError(`Conversation ${index + 1} ("${title}") has no id.`);
  if (!isRecord(raw.mapping)) throw new ImportFormatError(`Conversation "${title}" has no message mapping.`);
  const mapping = raw.mapping as Record<string, Node>;
  const conversationDate = isoDate(raw.create_time) ?? new Date(0).toISOString();

  const path: string[] = [];
  const seen = new Set<string>();
  let id = startNode(mapping, raw.current_node);
  while (id !== null) {
    if (seen.has(id)) throw new ImportFormatError(`Conversation "${title}" has a cycle in its message tree.`);
    seen.add(id);
    path.push(id);
    const node = mapping[id];
    const parent = isRecord(node) ? node.parent : null;
    id = typeof parent === "string" && parent in mapping ? parent : null;
  }
  path.reverse();

  for (const [nodeId, node] of Object.entries(mapping)) {
    if (seen.has(nodeId) || !isRecord(node) || !isRecord(node.message)) continue;
    const author = isRecord(node.message.author) ? node.message.author : {};
    if (author.role === "user" || author.role === "assistant")
      skipped.add("on a branch not kept (edited or regenerated)");
  }

  const messages: ImportedMessage[] = [];
  for (const nodeId of path) {
    const message = mapping[nodeId]?.message;
    if (!isRecord(message)) continue;
    const read = messageText(message);
    if ("skip" in read) {
      skipped.add(read.skip);
      continue;
    }
    const role = (message.author as { role: "user" | "assistant" }).role;
    messages.push({
      sourceId: typeof message.id === "string" ? message.id : nodeId,
      role,
      text: read.text,
      createdAt: isoDate(message.create_time) ?? conversationDate,
    });
  }
  const kept = withinLimits(messages, limits, skipped);
  if (!kept.some((message) => message.role === "user")) {
    skipped.add("conversation without a user message");
    return null;
  }
  return {
    sourceId,
    title,
    createdAt: isoDate(raw.create_time) ?? kept[0]?.createdAt ?? conversationDate,
    messages: kept,
  };
}

export function parseChatGptConversations(value: unknown, limits: { maxMessageChars: number }): ParsedExport {
  if (!Array.isArray(value)) throw new ImportFormatError("conversations.json is not a list of conversations.");
  const skipped = new SkipTally();
  const conversations: ImportedConversation[] = [];
  value.forEach((raw, index) => {
    if (!isRecord(raw)) throw new ImportFormatError(`Conversation ${index + 1} is not an object.`);
    const conversation = conversationOf(raw, index, limits, skipped);
    if (conversation) conversations.push(conversation);
  });
  return { source: "chatgpt", conversations, skipped: skipped.list() };
}
