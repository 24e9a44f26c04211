/**
 * Packs normalised conversations into request bodies for POST /api/imports/:id/conversations:
 * each body at most `maxBytes` of JSON and `maxConversations` conversations. A conversation too
 * long for one body is sent in parts, each cut before a message of the user's, so no exchange is
 * split (the server appends a part to the conversation's earlier parts).
 */
import type { ImportedConversation } from "./types";

const encoder = new TextEncoder();
const size = (value: unknown) => encoder.encode(JSON.stringify(value)).length;
/** `{"conversations":[` … `]}` and the commas between conversations. */
const ENVELOPE_BYTES = 32;

function parts(conversation: ImportedConversation, maxBytes: number): ImportedConversation[] {
  if (size(conversation) + ENVELOPE_BYTES <= maxBytes) return [conversation];
  const result: ImportedConversation[] = [];
  let current: ImportedConversation = { ...conversation, messages: [] };
  for (const message of conversation.messages) {
    const candidate = { ...current, messages: [...current.messages, message] };
    const cut = message.role === "user" && current.messages.length > 0;
    if (cut && size(candidate) + ENVELOPE_BYTES > maxBytes) {
      result.push(current);
      current = { ...conversation, messages: [message] };
    } else {
      current = candidate;
    }
  }
  result.push(current);
  return result;
}

export function packBatches(
  conversations: ImportedConversation[],
  { maxBytes, maxConversations }: { maxBytes: number; maxConversations: number },
): ImportedConversation[][] {
  const batches: ImportedConversation[][] = [];
  let batch: ImportedConversation[] = [];
  let bytes = ENVELOPE_BYTES;
  for (const conversation of conversations) {
    for (const part of parts(conversation, maxBytes)) {
      const partBytes = size(part) + 1;
      // A part of the same conversation always starts a new batch: a batch names each conversation once.
      const sameConversation = batch.some((c) => c.sourceId === part.sourceId);
      if (batch.length > 0 && (bytes + partBytes > maxBytes || batch.length >= maxConversations || sameConversation)) {
        batches.push(batch);
        batch = [];
        bytes = ENVELOPE_BYTES;
      }
      batch.push(part);
      bytes += partBytes;
    }
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}
