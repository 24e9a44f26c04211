import { deleteConversation, getConversation, updateConversation } from "@/db/queries/conversations";
import { route } from "@/lib/api/route";
import { assertKnownModel } from "@/lib/chat/models";
import { conversationPatchBody } from "@/lib/validation/chat";
import { idParams } from "@/lib/validation/common";

/** GET /api/conversations/:id → {conversation}; 404 not_found:conversation when missing or not yours. */
export const GET = route({ params: idParams, bearer: "read" }, async ({ db, userId, params }) => ({
  conversation: await getConversation(db, { userId, conversationId: params.id }),
}));

/** PATCH /api/conversations/:id {title?, archived?, mode?, model?, memoryEnabled?} → {conversation}. */
export const PATCH = route(
  { params: idParams, body: conversationPatchBody },
  async ({ db, ai, userId, params, body }) => {
    if (body.model) assertKnownModel(ai, body.model);
    return { conversation: await updateConversation(db, { userId, conversationId: params.id, patch: body }) };
  },
);

/** DELETE /api/conversations/:id → 204; its messages, notes and debug records go with it. */
export const DELETE = route({ params: idParams }, async ({ db, userId, params }) => {
  await deleteConversation(db, { userId, conversationId: params.id });
});
