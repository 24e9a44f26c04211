/** A model failure as the store and the chat's error sentence read it (lib/chat/answer-error.ts). */
import { truncateChars } from "@/core/text";

export const MODEL_CONNECTION_DROPPED = "the connection to the model dropped before the answer was finished";

/** The model's connection ended early (undici's "terminated" / UND_ERR_SOCKET, a reset), here or in a cause. */
export function isConnectionDrop(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && typeof e === "object" && depth < 6; depth++) {
    const { name, message, code } = e as { name?: unknown; message?: unknown; code?: unknown };
    if (code === "UND_ERR_SOCKET" || code === "ECONNRESET") return true;
    if (name === "TypeError" && message === "terminated") return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** One line; an in-stream error event's plain object (`{"error": {…}}`) gives its message, never "[object Object]". */
export function errorText(error: unknown): string {
  if (isConnectionDrop(error)) return MODEL_CONNECTION_DROPPED;
  return truncateChars(describeError(error), 500);
}

function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === "object" && error !== null) {
    const inner = (error as { error?: unknown }).error;
    if (typeof inner === "object" && inner !== null) return describeError(inner);
    const { message, code, type } = error as { message?: unknown; code?: unknown; type?: unknown };
    const kind = typeof code === "string" ? code : typeof type === "string" ? type : null;
    if (typeof message === "string") return kind ? `${message} (${kind})` : message;
    try {
      return JSON.stringify(error);
    } catch {
      return String(error);
    }
  }
  return String(error);
}
