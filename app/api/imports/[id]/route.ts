import { getImportProgress } from "@/db/queries/imports";
import { route } from "@/lib/api/route";
import { undoImportReembedding } from "@/lib/memory/store/undo-import";
import { idParams } from "@/lib/validation/common";

/** GET /api/imports/:id → {import}: its status and progress (exchanges done of total, memories, failures). */
export const GET = route({ params: idParams }, async ({ db, userId, params }) => ({
  import: await getImportProgress(db, { userId, importId: params.id }),
}));

/**
 * DELETE /api/imports/:id → {undone}: the import's conversations and the memories it created are gone; those it
 * changed are as they were before it, but for the ones changed since (listed in `kept`).
 */
export const DELETE = route({ params: idParams }, async ({ db, ai, userId, params }) => ({
  undone: await undoImportReembedding(db, { userId, importId: params.id }, ai.embedder),
}));
