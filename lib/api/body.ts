/**
 * Reading what a request carries before validation: the JSON body (readJsonBody) and the query
 * string (queryObject). lib/api/route.ts calls both; the zod schemas of lib/validation judge the result.
 *
 * Body limit and keep-alive. A body over MAX_BODY_BYTES is refused with 413, and the connection it
 * came on must stay usable for the client's next request:
 * - Content-Length over the limit: the body is never touched. Node's HTTP server (what `next start`
 *   and tests/http-server.ts run on) then discards ("dumps") the unread body after the response,
 *   and the connection is reused.
 * - A streamed body (chunked, or longer than it claimed) that grows over the limit: reading stops
 *   there and the 413 goes out at once, but the rest of the body is read and discarded in the
 *   background (`drainInBackground`), as Node itself would — never held in memory. Cancelling the
 *   stream instead would leave Node's HTTP parser stuck in the middle of that body, and the next
 *   request on the connection would hang and be reset. Past DRAIN_MAX_BYTES the stream is
 *   cancelled (the connection closes): nobody needs to push megabytes at a 256 KB endpoint.
 */
import { JSON_MAX_DEPTH, MESSAGE_MAX_CHARS, REQUEST_BODY_MAX_BYTES } from "@/core/config";
import { AppError } from "@/core/errors";

/**
 * The largest JSON body any route accepts (core/config.ts REQUEST_BODY_MAX_BYTES: every valid
 * message fits in it, however its characters are escaped).
 */
export const MAX_BODY_BYTES = REQUEST_BODY_MAX_BYTES;

/** How much of a refused streamed body is read and discarded to keep its connection usable. */
export const DRAIN_MAX_BYTES = 8 * 1024 * 1024;

const bodyError = (message: string) => new AppError("bad_request", message, { fields: { body: message } });

const formatBytes = (n: number) => n.toLocaleString("en-US");

/**
 * The 413: it says that the request body's byte limit was hit — not a field's character limit, which
 * is a 400 naming the field — and how large the body was when known.
 */
function tooLarge(size?: number): AppError {
  const limit = `${MAX_BODY_BYTES / 1024} KB (${formatBytes(MAX_BODY_BYTES)} bytes)`;
  const what = size === undefined ? "more than that" : `${formatBytes(size)} bytes`;
  return new AppError(
    "payload_too_large",
    `Request body too large: the limit is ${limit} of JSON, and this body is ${what}. That is the limit on the ` +
      `request's bytes, which every valid message fits in however it is escaped; text limits count characters ` +
      `(a chat message: ${formatBytes(MESSAGE_MAX_CHARS)}) and are a 400 naming the field.`,
  );
}

/**
 * Reads what is left of `reader` and throws it away, after the current response has had its turn
 * (setImmediate: the 413 is written first). Stops — cancelling, which closes the connection — past
 * `budget` bytes. Never throws.
 */
export function drainInBackground(reader: ReadableStreamDefaultReader<Uint8Array>, budget: number): void {
  setImmediate(async () => {
    let left = budget;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        left -= value.byteLength;
        if (left < 0) {
          await reader.cancel();
          return;
        }
      }
    } catch {
      // The client went away: nothing left to drain.
    }
  });
}

/** Reads at most MAX_BODY_BYTES of a JSON body, whatever Content-Length claims. */
export async function readJsonBody(request: Request): Promise<unknown> {
  const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (type !== "application/json") {
    throw new AppError("unsupported_media_type", "Request body must be JSON (Content-Type: application/json)");
  }
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (declared > MAX_BODY_BYTES) throw tooLarge(declared);
  if (!request.body) throw bodyError("Request body is required");

  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      drainInBackground(reader, DRAIN_MAX_BYTES - size);
      throw tooLarge();
    }
    chunks.push(value);
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw bodyError("Request body is not valid UTF-8");
  }
  if (text.trim() === "") throw bodyError("Request body is required");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw bodyError("Malformed JSON");
  }
  if (nestedDeeperThan(value, JSON_MAX_DEPTH)) {
    throw bodyError(`Request body is nested too deeply: at most ${JSON_MAX_DEPTH} levels of arrays and objects`);
  }
  return value;
}

/**
 * Whether `value` has arrays or objects nested more than `max` levels (itself level 1). Walked
 * with a stack of its own, not by recursion: the value is what a client sent, and JSON.parse
 * (iterative in V8) accepts any depth.
 */
function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: { node: unknown; depth: number }[] = [{ node: value, depth: 1 }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { node, depth } = next;
    if (typeof node !== "object" || node === null) continue;
    if (depth > max) return true;
    for (const child of Object.values(node)) {
      if (typeof child === "object" && child !== null) stack.push({ node: child, depth: depth + 1 });
    }
  }
  return false;
}

const HEX = /^[0-9A-Fa-f]{2}$/;
const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * application/x-www-form-urlencoded decoding as URLSearchParams does it (`+` is a space, `%XX` a
 * byte, a malformed escape stays as written), except that bytes which are not valid UTF-8 are an
 * error instead of U+FFFD: `%ED%A0%80` (an unpaired surrogate) or `%FF` is not text.
 */
function decodeComponent(raw: string): string | null {
  const bytes = Buffer.from(raw.replaceAll("+", " "), "utf8");
  const out = Buffer.alloc(bytes.length);
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i] as number;
    const hex = byte === 0x25 ? bytes.subarray(i + 1, i + 3).toString("latin1") : "";
    if (HEX.test(hex)) {
      out[n++] = Number.parseInt(hex, 16);
      i += 2;
    } else {
      out[n++] = byte;
    }
  }
  try {
    return utf8.decode(out.subarray(0, n));
  } catch {
    return null;
  }
}

/**
 * The request header proxy.ts puts the query string in, exactly as the client sent it. Next hands
 * route handlers a URL whose query it has parsed and re-serialized — bytes that are not UTF-8
 * become U+FFFD, and a parameter named `__proto__` is lost in its object — so the route wrapper reads
 * the query from here when the proxy ran (every API request without a body: proxy.ts's matcher),
 * else from the URL (a test server, which passes the URL through untouched). A client that sets
 * the header itself only chooses how its own query is read: the proxy overwrites it.
 */
export const RAW_QUERY_HEADER = "x-lifeline-raw-query";

/**
 * Whether every segment of a URL path percent-decodes to UTF-8 text. `%FF`, an encoded surrogate
 * (`%ED%A0%80`), an overlong form (`%C0%AF`) or a malformed escape (`%G0`) is not a path any page or
 * route has: proxy.ts answers it with a 400 (Next itself would answer a plain-text 500).
 */
export function isDecodablePath(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

/**
 * The query string as an object for the route's query schema: one string per parameter, an array
 * of strings for a parameter given more than once (which the schemas, expecting one string, refuse
 * — no silent "last one wins"). A name or value that is not valid UTF-8 once percent-decoded is a
 * 400 naming `query.<name>`. The strings themselves (NUL, length, type) are the schema's to judge.
 */
export function queryObject(request: Request): Record<string, string | string[]> {
  const search = request.headers.get(RAW_QUERY_HEADER) ?? new URL(request.url).search.slice(1);
  const values = new Map<string, string[]>();
  const fields: Record<string, string> = {};
  for (const pair of search.split("&")) {
    if (pair === "") continue;
    const eq = pair.indexOf("=");
    const rawName = eq === -1 ? pair : pair.slice(0, eq);
    const rawValue = eq === -1 ? "" : pair.slice(eq + 1);
    const name = decodeComponent(rawName);
    const value = decodeComponent(rawValue);
    if (name === null || value === null) {
      const field = name === null ? "query" : `query.${name}`;
      fields[field] ??= "Is not valid UTF-8 once decoded (an encoded unpaired surrogate or a stray byte)";
      continue;
    }
    values.set(name, [...(values.get(name) ?? []), value]);
  }
  const [first] = Object.entries(fields);
  if (first) throw new AppError("bad_request", `${first[0]}: ${first[1]}`, { fields });
  // fromEntries defines own properties: a parameter named __proto__ stays a (rejected) key.
  return Object.fromEntries([...values].map(([name, list]) => [name, list.length === 1 ? (list[0] as string) : list]));
}
