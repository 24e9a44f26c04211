import { route } from "@/lib/api/route";
import { runChatTurn } from "@/lib/chat/turn";
import { processDispatcher } from "@/lib/runtime";
import { chatBody } from "@/lib/validation/chat";

/** Streaming answers can take a while on serverless hosts. */
export const maxDuration = 60;

/**
 * POST /api/chat {conversationId?, message: {text} | UI message, model?, mode?, temperature?}
 * (or {conversationId, retryOf} to regenerate the latest answer, {conversationId, editOf, message}
 * to edit the latest user message: docs/chat.md)
 * → a UI message stream (useChat). Without conversationId a conversation is created; its id is in
 * the `x-conversation-id` header and in the stream's message metadata.
 */
export const POST = route({ body: chatBody, rateLimit: "chat" }, ({ db, ai, userId, body, request, log }) =>
  runChatTurn(db, ai, { userId, body, signal: request.signal, log, dispatcher: processDispatcher() }),
);
