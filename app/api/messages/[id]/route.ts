import { route } from "@/lib/api/route";
import { deleteVersion } from "@/lib/chat/versions";
import { idParams } from "@/lib/validation/common";

/**
 * Deletes a version and its continuation (docs/chat.md § Versions). 409 for a question's only answer, or while
 * an answer in it streams.
 */
export const DELETE = route({ params: idParams }, async ({ db, userId, params }) => {
  await deleteVersion(db, { userId, messageId: params.id });
});
