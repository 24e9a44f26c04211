import { deleteNote } from "@/db/queries/notes";
import { route } from "@/lib/api/route";
import { idParams } from "@/lib/validation/common";

export const DELETE = route({ params: idParams }, async ({ db, userId, params }) => {
  await deleteNote(db, { userId, noteId: params.id });
});
