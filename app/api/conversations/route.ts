import { createConversation, listConversations } from "@/db/queries/conversations";
import { getAccount } from "@/db/queries/users";
import { route } from "@/lib/api/route";
import { assertKnownModel } from "@/lib/chat/models";
import { conversationCreateBody, conversationListQuery } from "@/lib/validation/chat";

export const GET = route({ query: conversationListQuery, bearer: "read" }, async ({ db, userId, query }) =>
  listConversations(db, { userId, ...query }),
);

export const POST = route({ body: conversationCreateBody, status: 201 }, async ({ db, ai, userId, body }) => {
  if (body.model !== undefined) assertKnownModel(ai, body.model);
  const memoryEnabled = body.memoryEnabled ?? (await getAccount(db, { userId })).memoryEnabledDefault;
  return { conversation: await createConversation(db, { userId, ...body, memoryEnabled }) };
});
