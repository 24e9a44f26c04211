/** Browser-side calls of Lifeline's JSON API: errors become ApiError with the server's message. */

export class ApiError extends Error {
  override readonly name = "ApiError";

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
  }
}

interface ErrorBody {
  error?: { code?: string; message?: string; fields?: Record<string, string> };
}

/** fetch + JSON: returns the parsed body (undefined for 204), throws ApiError for any non-2xx answer. */
export async function api<T = unknown>(url: string, init: { method?: string; json?: unknown } = {}): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: init.method ?? (init.json === undefined ? "GET" : "POST"),
      headers: init.json === undefined ? undefined : { "content-type": "application/json" },
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
    });
  } catch {
    throw new ApiError(0, "network", "Could not reach the server. Check your connection and try again.");
  }
  if (res.status === 204) return undefined as T;
  const body = (await res.json().catch(() => undefined)) as (T & ErrorBody) | undefined;
  if (!res.ok) {
    throw new ApiError(
      res.status,
      body?.error?.code ?? "internal",
      body?.error?.message ?? `The server answered ${res.status}.`,
      body?.error?.fields,
    );
  }
  return body as T;
}

/** The user-facing text of an error thrown by `api`, useChat or anything else. */
export function errorMessage(error: unknown): string {
  if (!(error instanceof Error)) return "Something went wrong.";
  // useChat's transport puts the raw response body in the message: prefer its JSON error message.
  try {
    const parsed = JSON.parse(error.message) as ErrorBody;
    if (parsed.error?.message) return parsed.error.message;
  } catch {
    // not JSON: the message is already text
  }
  return error.message || "Something went wrong.";
}
