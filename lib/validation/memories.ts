/** Bodies of the memory routes (app/api/memories/**). */
import { z } from "zod";
import { MEMORY_TYPES } from "@/db/schema";
import { text } from "./strings";

export const MEMORY_CONTENT_MAX = 2000;
export const MEMORY_TITLE_MAX = 255;
export const MEMORY_TAG_MAX = 40;
export const MEMORY_TAGS_MAX = 20;

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
