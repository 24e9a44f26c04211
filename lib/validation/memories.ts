import { z } from "zod";
import { MEMORY_SORTS } from "@/db/queries/memory-list";
import { MEMORY_PROVENANCES, MEMORY_STATUSES, MEMORY_TYPES } from "@/db/schema";
import { MESSAGE_MAX } from "./chat";
import { uuid } from "./common";
import { MEMORY_CONTENT_MAX, MEMORY_TAG_MAX, MEMORY_TAGS_MAX, MEMORY_TITLE_MAX } from "./memory-limits";
import { requestString, text } from "./strings";

export { MEMORY_CONTENT_MAX, MEMORY_TAG_MAX, MEMORY_TAGS_MAX, MEMORY_TITLE_MAX } from "./memory-limits";

/** PATCH /api/memories/:id — any of the editable fields, at least one; unknown fields are a 400. */
export const memoryPatchBody = z
  .strictObject({
    content: text({ max: MEMORY_CONTENT_MAX, multiline: true }).optional(),
    /** null removes the title. */
    title: text({ max: MEMORY_TITLE_MAX }).nullable().optional(),
    type: z.enum(MEMORY_TYPES).optional(),
    importance: z.number().min(0).max(1).optional(),
    tags: z
      .array(text({ max: MEMORY_TAG_MAX }))
      .max(MEMORY_TAGS_MAX)
      .refine((tags) => new Set(tags).size === tags.length, "Tags must be unique")
      .optional(),
    pinned: z.boolean().optional(),
  })
  .refine((patch) => Object.keys(patch).length > 0, "Give at least one field to change");

const tags = z
  .array(text({ max: MEMORY_TAG_MAX }))
  .max(MEMORY_TAGS_MAX)
  .refine((list) => new Set(list).size === list.length, "Tags must be unique");

/** POST /api/memories — a memory the user types in. */
export const memoryCreateBody = z.strictObject({
  content: text({ max: MEMORY_CONTENT_MAX, multiline: true }),
  title: text({ max: MEMORY_TITLE_MAX }).optional(),
  type: z.enum(MEMORY_TYPES).optional(),
  importance: z.number().min(0).max(1).optional(),
  tags: tags.optional(),
});

const booleanString = z.enum(["true", "false"]).transform((v) => v === "true");

/** DELETE /api/memories/:id — `now=true` redacts the memory's text from derived records at once, not when the undo window closes. */
export const memoryDeleteQuery = z.strictObject({ now: booleanString.optional() });

/** GET /api/memories — filters, search, sort and page. */
export const memoryListQuery = z.strictObject({
  q: requestString().trim().min(1).max(200).optional(),
  /** text (default): words in title/content; semantic: ranked by meaning (needs q). */
  match: z.enum(["text", "semantic"]).optional(),
  type: z.enum(MEMORY_TYPES).optional(),
  tag: requestString().trim().min(1).max(MEMORY_TAG_MAX).optional(),
  provenance: z.enum(MEMORY_PROVENANCES).optional(),
  status: z.enum(MEMORY_STATUSES).optional(),
  pinned: booleanString.optional(),
  sort: z.enum(MEMORY_SORTS).optional(),
  page: z.coerce.number().int().min(1).max(10_000).optional(),
  pageSize: z.coerce.number().int().min(1).max(100).optional(),
});
export type MemoryListQuery = z.infer<typeof memoryListQuery>;

/** POST /api/memories/preview — what a chat turn would assemble for this message. */
export const previewBody = z.strictObject({
  message: text({ max: MESSAGE_MAX, multiline: true }),
  conversationId: uuid.optional(),
});

export const DELETE_ALL_CONFIRMATION = "delete all";

/** DELETE /api/memories — the user must type the confirmation phrase. */
export const deleteAllBody = z.strictObject({
  confirm: z.literal(DELETE_ALL_CONFIRMATION, { error: `Type "${DELETE_ALL_CONFIRMATION}" to confirm` }),
});

/** GET /api/memories/export — json (default): every memory with its history; text: the handout. */
export const memoryExportQuery = z.strictObject({
  format: z.enum(["json", "text"]).optional(),
});
