import { getConversation } from "@/db/queries/conversations";
import { getAccount } from "@/db/queries/users";
import { route } from "@/lib/api/route";
import { loadHistory } from "@/lib/chat/history";
import { previewContext } from "@/lib/memory/retrieval/assemble";
import { processAssemblyConfig } from "@/lib/runtime";
import { previewBody } from "@/lib/validation/memories";

/** What a turn would assemble, without a model call or an access count; embedding counts in the user's limit. */
export const POST = route(
  { body: previewBody, bearer: "read", rateLimit: "embed" },
  async ({ db, ai, userId, body }) => {
    const account = await getAccount(db, { userId });
    const conversation = body.conversationId
      ? await getConversation(db, { userId, conversationId: body.conversationId })
      : null;
    const { messages, trace } = await previewContext(db, {
      userId,
      userName: account.name,
      conversationId: conversation?.id ?? null,
      message: body.message,
      history: conversation ? await loadHistory(db, { userId, conversationId: conversation.id }) : [],
      mode: conversation?.mode ?? "conversational",
      memoryEnabled: conversation?.memoryEnabled ?? true,
      embed: (text) => ai.embedText(text),
      embeddingModel: ai.describeProviders().embedder,
      config: processAssemblyConfig(),
    });
    return { trace, memoryContext: trace.memoryLines.join("\n"), messages };
  },
);
