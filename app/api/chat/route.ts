import { route } from "@/lib/api/route";
import { runChatTurn } from "@/lib/chat/turn";
import { processAssemblyConfig, processDispatcher } from "@/lib/runtime";
import { chatBody } from "@/lib/validation/chat";

/**
 * Seconds a streamed answer may keep this function running on Vercel (Next's route segment config).
 * With fluid compute (the default) 300 is both the default and the Hobby plan's ceiling; Pro and
 * Enterprise allow up to 800. A slow model's long answer fits, and no plan refuses the value.
 */
export const maxDuration = 300;

/**
 * POST /api/chat {conversationId?, message: {text} | UI message, model?, mode?, temperature?}
 * (or {conversationId, retryOf} to regenerate the latest answer, {conversationId, editOf, message}
 * to edit the latest user message: docs/chat.md)
 * → a UI message stream (useChat). Without conversationId a conversation is created; its id is in
 * the `x-conversation-id` header and in the stream's message metadata. The body and the stream,
 * with curl examples: docs/api.md#chat.
 */
export const POST = route({ body: chatBody, rateLimit: "chat" }, ({ db, ai, userId, body, request, log }) =>
  runChatTurn(db, ai, {
    userId,
    body,
    signal: request.signal,
    log,
    dispatcher: processDispatcher(),
    assembly: processAssemblyConfig(),
  }),
);
