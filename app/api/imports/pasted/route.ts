import { route } from "@/lib/api/route";
import { createPastedMemories } from "@/lib/memory/store/memory-store";
import { importPastedBody } from "@/lib/validation/imports";

/**
 * POST /api/imports/pasted {memories: [text]} → 201 {memories}: the memories the user kept from
 * another assistant's pasted list, saved together (all or none), provenance "you pasted this".
 */
export const POST = route({ body: importPastedBody, status: 201 }, async ({ db, ai, userId, body }) => ({
  memories: await createPastedMemories(db, { userId, contents: body.memories, pastedAt: new Date() }, ai.embedder),
}));
