import { route } from "@/lib/api/route";
import { restoreMemories } from "@/lib/memory/store/restore";
import { restoreBatchBody } from "@/lib/validation/imports";

/**
 * POST /api/imports/restore {memories} → {restored, alreadyPresent}: one batch of a Lifeline export's
 * memories (lib/import/lifeline.ts), written in one transaction; the same batch again restores nothing.
 */
export const POST = route({ body: restoreBatchBody }, async ({ db, ai, userId, body }) =>
  restoreMemories(db, { userId, memories: body.memories, restoredAt: new Date() }, ai.embedder),
);
