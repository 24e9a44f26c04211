import { route } from "@/lib/api/route";
import { claimTurn, countFromArrival } from "@/lib/chat/in-flight";
import { runChatTurn } from "@/lib/chat/turn";
import { processAssemblyConfig, processDispatcher } from "@/lib/runtime";
import { chatBody } from "@/lib/validation/chat";

/** With fluid compute 300 is the default and the Hobby ceiling, so no plan refuses it and a slow answer fits. */
export const maxDuration = 300;

/** Request and stream shapes: docs/chat.md and docs/api.md#chat. */
export const POST = countFromArrival(
  route({ body: chatBody, rateLimit: "chat" }, ({ db, ai, userId, body, request, log }) =>
    runChatTurn(db, ai, {
      userId,
      body,
      signal: request.signal,
      log,
      dispatcher: processDispatcher(),
      assembly: processAssemblyConfig(),
      endTurn: claimTurn(request),
    }),
  ),
);
