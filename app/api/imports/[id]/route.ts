import { undoImport } from "@/db/queries/import-undo";
import { getImportProgress } from "@/db/queries/imports";
import { route } from "@/lib/api/route";
import { idParams } from "@/lib/validation/common";

/** GET /api/imports/:id → {import}: its status and progress (exchanges done of total, memories, failures). */
export const GET = route({ params: idParams }, async ({ db, userId, params }) => ({
  import: await getImportProgress(db, { userId, importId: params.id }),
}));

/** DELETE /api/imports/:id → {undone}: the import's conversations and the memories it created are gone. */
export const DELETE = route({ params: idParams }, async ({ db, userId, params }) => ({
  undone: await undoImport(db, { userId, importId: params.id }),
}));
