import { getConversation } from "@/db/queries/conversations";
import { getAccount } from "@/db/queries/users";
import { route } from "@/lib/api/route";
import { loadHistory } from "@/lib/chat/history";
import { previewContext } from "@/lib/memory/retrieval/assemble";
import { processAssemblyConfig } from "@/lib/runtime";
import { previewBody } from "@/lib/validation/memories";

/**
 * POST /api/memories/preview {message, conversationId?} → {trace, memoryContext, messages}: what a
 * chat turn would assemble for this message, without calling a model or counting an access. It
 * embeds the message: counted in the user's embedding limit (LIFELINE_EMBED_RATE_LIMIT).
 */
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
