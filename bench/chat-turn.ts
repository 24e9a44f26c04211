/**
 * A chat turn through the real route: when POST /api/chat was sent (so the turn's spans can be set against
 * it, turn-spans.ts) and the time to its first text delta, with the offline model at no delay.
 */
import type { HttpClient } from "@/tests/http-client";

export interface ChatUser {
  client: HttpClient;
  conversationId?: string;
}

/**
 * A socket the server closed as idle (its keep-alive timeout) just as the client reused it: the
 * request never reached the server, so it is sent again. Anything else is a real failure.
 */
function resetBeforeSending(error: unknown): boolean {
  return (error as { cause?: { code?: string } })?.cause?.code === "ECONNRESET";
}

export async function timeChatTurn(baseUrl: string, user: ChatUser, message: string): Promise<number> {
  return (await sendChatTurn(baseUrl, user, message)).firstTokenMs;
}

/** `sentAt`: epoch milliseconds on the clock spans use (`performance.timeOrigin + performance.now()`). */
export async function sendChatTurn(
  baseUrl: string,
  user: ChatUser,
  message: string,
): Promise<{ sentAt: number; firstTokenMs: number }> {
  const send = () =>
    fetch(`${baseUrl}/api/chat`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: user.client.cookieHeader() },
      body: JSON.stringify({
        message: { text: message },
        ...(user.conversationId ? { conversationId: user.conversationId } : {}),
      }),
    });
  let started = performance.now();
  let response: Response;
  try {
    response = await send();
  } catch (error) {
    if (!resetBeforeSending(error)) throw error;
    started = performance.now();
    response = await send();
  }
  if (response.status !== 200 || !response.body) {
    throw new Error(`POST /api/chat: ${response.status} ${await response.text()}`);
  }
  user.conversationId ??= response.headers.get("x-conversation-id") ?? undefined;
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let firstDelta: number | undefined;
  let buffered = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (firstDelta === undefined) {
      buffered += decoder.decode(value, { stream: true });
      if (buffered.includes('"type":"text-delta"')) firstDelta = performance.now() - started;
    }
  }
  if (firstDelta === undefined) throw new Error(`POST /api/chat: the answer had no text (${buffered.slice(0, 200)})`);
  return { sentAt: performance.timeOrigin + started, firstTokenMs: firstDelta };
}
