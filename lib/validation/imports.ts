/** As strict as if no browser had read the export: a script may post a batch (docs/api.md). */
import { z } from "zod";
import { importConfig } from "@/core/config";
import { IMPORT_SOURCE_KINDS } from "@/db/schema";
import { MEMORY_CONTENT_MAX } from "./memories";
import { requestString, text } from "./strings";

const sourceId = requestString().min(1).max(200);
const isoDate = z.iso.datetime({ offset: true, error: "Must be an ISO 8601 date and time" });

/** POST /api/imports — an import about to receive its batches. */
export const importCreateBody = z.strictObject({
  source: z.enum(IMPORT_SOURCE_KINDS),
  fileName: text({ max: 255 }),
});

const importedMessage = z.strictObject({
  /** Optional: a message without one is found again by its content hash alone. */
  sourceId: sourceId.optional(),
  role: z.enum(["user", "assistant"]),
  text: text({ max: importConfig.maxMessageChars, multiline: true }),
  createdAt: isoDate,
});

const importedConversation = z.strictObject({
  sourceId,
  title: text({ max: importConfig.maxTitleChars }),
  createdAt: isoDate,
  messages: z
    .array(importedMessage)
    .min(1)
    .max(importConfig.maxMessagesPerConversation)
    .refine(
      (messages) => {
        const ids = messages.flatMap((message) => (message.sourceId === undefined ? [] : [message.sourceId]));
        return new Set(ids).size === ids.length;
      },
      "Message sourceIds must be unique in a conversation",
    ),
});

/** POST /api/imports/:id/conversations — one batch of normalised conversations (lib/import/types.ts). */
export const importBatchBody = z.strictObject({
  conversations: z
    .array(importedConversation)
    .min(1)
    .max(importConfig.maxBatchConversations)
    .refine(
      (conversations) => new Set(conversations.map((c) => c.sourceId)).size === conversations.length,
      "Conversation sourceIds must be unique in a batch",
    ),
});

/** POST /api/imports/pasted — the memories the user kept from a pasted list, as reviewed. */
export const importPastedBody = z.strictObject({
  memories: z
    .array(text({ max: MEMORY_CONTENT_MAX, multiline: true }))
    .min(1)
    .max(importConfig.maxPastedMemories)
    .refine((list) => new Set(list).size === list.length, "Each memory once"),
});

