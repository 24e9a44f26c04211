import { deleteNote } from "@/db/queries/notes";
import { route } from "@/lib/api/route";
import { idParams } from "@/lib/validation/common";

/** DELETE /api/notes/:id → 204; 404 not_found:note when the note is missing or not yours. */
export const DELETE = route({ params: idParams }, async ({ db, userId, params }) => {
  await deleteNote(db, { userId, noteId: params.id });
});
