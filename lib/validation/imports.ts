/** As strict as if no browser had read the export: a script may post a batch (docs/api.md). */
import { z } from "zod";
import { importConfig } from "@/core/config";
import {
  ACTORS,
  IMPORT_SOURCE_KINDS,
  MEMORY_EVENT_ACTIONS,
  MEMORY_PROVENANCES,
  MEMORY_STATUSES,
  MEMORY_TYPES,
} from "@/db/schema";
import { MEMORY_CONTENT_MAX, MEMORY_TAG_MAX, MEMORY_TAGS_MAX, MEMORY_TITLE_MAX } from "./memory-limits";
import { requestString, text } from "./strings";

const sourceId = requestString().min(1).max(200);
const isoDate = z.iso.datetime({ offset: true, error: "Must be an ISO 8601 date and time" });

/** POST /api/imports — an import about to receive its batches. */
export const importCreateBody = z.strictObject({
  source: z.enum(IMPORT_SOURCE_KINDS),
  fileName: text({ max: 255 }),
  /** false: its conversations are deleted once it is done or cancelled, and only its memories stay. */
  keepConversations: z.boolean().optional(),
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
    .refine((messages) => {
      const ids = messages.flatMap((message) => (message.sourceId === undefined ? [] : [message.sourceId]));
      return new Set(ids).size === ids.length;
    }, "Message sourceIds must be unique in a conversation"),
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

const snapshot = z
  .strictObject({
    content: requestString().max(MEMORY_CONTENT_MAX),
    title: requestString().max(MEMORY_TITLE_MAX).nullable(),
    type: z.enum(MEMORY_TYPES),
    tags: z.array(requestString().max(MEMORY_TAG_MAX)).max(MEMORY_TAGS_MAX),
    importance: z.number().min(0).max(1),
    status: z.enum(MEMORY_STATUSES),
    pinned: z.boolean(),
    /** Another account's id: never stored (the restored event keeps null). */
    supersededById: requestString().max(64).nullable(),
    deadline: z.iso.date().nullable(),
    isActionable: z.boolean(),
  })
  .partial()
  .nullable();

const restoredEvent = z.strictObject({
  action: z.enum(MEMORY_EVENT_ACTIONS),
  actor: z.enum(ACTORS),
  before: snapshot,
  after: snapshot,
  reason: text({ max: importConfig.maxRestoreReasonChars, multiline: true }).nullable(),
  createdAt: isoDate,
});

/** One memory of a Lifeline export as restored: only what the export holds and a restore keeps (lib/import/lifeline.ts). */
export const restoredMemory = z.strictObject({
  /** The memory's id in the export: with its content, the key that makes a restore idempotent. */
  sourceId,
  content: text({ max: MEMORY_CONTENT_MAX, multiline: true }),
  title: text({ max: MEMORY_TITLE_MAX }).nullable(),
  type: z.enum(MEMORY_TYPES),
  tags: z
    .array(text({ max: MEMORY_TAG_MAX }))
    .max(MEMORY_TAGS_MAX)
    .refine((list) => new Set(list).size === list.length, "Tags must be unique"),
  importance: z.number().min(0).max(1),
  confidence: z.number().min(0).max(1).nullable(),
  provenance: z.enum(MEMORY_PROVENANCES),
  /** A superseded or deleted memory is not restored; one waiting for confirmation stays waiting. */
  status: z.enum(["active", "pending_confirmation"]),
  pinned: z.boolean(),
  isActionable: z.boolean(),
  deadline: z.iso.date().nullable(),
  evidence: z
    .array(
      z.strictObject({
        role: z.enum(["user", "assistant"]),
        quote: text({ max: importConfig.maxMessageChars, multiline: true }),
      }),
    )
    .max(importConfig.maxRestoreEvidence),
  pastedAt: isoDate.nullable(),
  createdAt: isoDate,
  updatedAt: isoDate,
  editedAt: isoDate.nullable(),
  history: z.array(restoredEvent).max(importConfig.maxRestoreHistory),
});

/** POST /api/imports/restore and …/restore/preview — one batch of a Lifeline export's memories. */
export const restoreBatchBody = z.strictObject({
  memories: z
    .array(restoredMemory)
    .min(1)
    .max(importConfig.maxRestoreMemories)
    .refine(
      (list) => new Set(list.map((memory) => memory.sourceId)).size === list.length,
      "Memory sourceIds must be unique in a batch",
    ),
});

export type RestoredMemoryInput = z.output<typeof restoredMemory>;
