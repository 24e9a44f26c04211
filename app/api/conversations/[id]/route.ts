import { deleteConversation, getConversation, updateConversation } from "@/db/queries/conversations";
import { route } from "@/lib/api/route";
import { assertKnownModel } from "@/lib/chat/models";
import { showVersion } from "@/lib/chat/versions";
import { conversationPatchBody } from "@/lib/validation/chat";
import { idParams } from "@/lib/validation/common";

export const GET = route({ params: idParams, bearer: "read" }, async ({ db, userId, params }) => ({
  conversation: await getConversation(db, { userId, conversationId: params.id }),
}));

/** `currentMessageId` of another conversation → 404 not_found:message, and nothing changes. */
export const PATCH = route(
  { params: idParams, body: conversationPatchBody },
  async ({ db, ai, userId, params, body }) => {
    const { currentMessageId, ...patch } = body;
    if (patch.model) assertKnownModel(ai, patch.model);
    const conversationId = params.id;
    if (currentMessageId) await showVersion(db, { userId, conversationId, messageId: currentMessageId });
    const changes = Object.values(patch).some((value) => value !== undefined);
    return {
      conversation: changes
        ? await updateConversation(db, { userId, conversationId, patch })
        : await getConversation(db, { userId, conversationId }),
    };
  },
);

export const DELETE = route({ params: idParams }, async ({ db, userId, params }) => {
  await deleteConversation(db, { userId, conversationId: params.id });
});
