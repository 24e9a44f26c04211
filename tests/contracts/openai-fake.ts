/**
 * A strict OpenAI-compatible server on 127.0.0.1 that refuses, with OpenAI's 400 shape, what
 * OpenAI's documentation says it refuses; a rule not in that documentation does not belong here.
 *   [ref]        platform.openai.com/docs/api-reference/chat/create
 *   [reasoning]  platform.openai.com/docs/guides/reasoning
 *   [strict]     platform.openai.com/docs/guides/structured-outputs ("Supported schemas")
 *   [streaming]  platform.openai.com/docs/guides/streaming-responses
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { chatCompletionBody, completionChunk, textPieces } from "@/tests/fixtures/openai-compatible";

export type FinishReason = "stop" | "length" | "content_filter" | "tool_calls";

export type Reply =
  /** Text; `finish: null` closes the stream (with [DONE]) without a finish reason. */
  | { kind: "text"; text: string; finish?: FinishReason | null }
  /** A structured-output answer: `content` (a string is sent as is, e.g. truncated JSON). */
  | { kind: "json"; content: unknown; finish?: FinishReason }
  /** The model refuses: `message.refusal` / `delta.refusal` [strict, "Refusals"]. */
  | { kind: "refusal"; refusal: string }
  | { kind: "tool-calls"; calls: { id: string; name: string; arguments: string }[] }
  /** `text` streams, then the server sends `data: {"error": …}` and ends the stream [streaming]. */
  | { kind: "error-event"; text: string; error: { message: string; type: string; code?: string | null } }
  /** `text` streams, then the TCP connection is destroyed: no finish, no [DONE]. */
  | { kind: "cut"; text: string }
  | { kind: "hold" }
  /**
   * Streamed `pieces`, each after its pause; with `holdAfter`, the stream stays open after that
   * many pieces (calling `onHeld`) until close() — a server that stops sending mid-answer.
   */
  | {
      kind: "pieces";
      pieces: { text: string; pauseBeforeMs?: number }[];
      holdAfter?: number;
      onHeld?: () => void;
      finish?: FinishReason;
    };

export interface RecordedRequest {
  path: string;
  body: Record<string, unknown>;
  refused: string | null;
}

export interface StrictOpenAi {
  baseURL: string;
  readonly requests: RecordedRequest[];
  /** The reply to a chat request (undefined: the default). Called after the rules passed. */
  respond: (body: ChatRequest, path: string) => Reply | undefined;
  close(): Promise<void>;
}

export interface ChatRequest extends Record<string, unknown> {
  model: string;
  messages: { role: string; content?: unknown; tool_calls?: unknown; tool_call_id?: unknown }[];
  stream?: boolean;
  response_format?: { type: string; json_schema?: { name?: string; strict?: boolean; schema?: unknown } };
}

class Refusal extends Error {
  constructor(
    message: string,
    readonly param: string | null,
    readonly code: string | null,
  ) {
    super(message);
  }
}

/**
 * [reasoning] "reasoning models": the o-series (o1, o3, o4-mini…) and GPT-5 (except the
 * non-reasoning gpt-5-chat). [reasoning]/[ref] `max_tokens` "is not compatible with o-series
 * models" — they take `max_completion_tokens`; sampling parameters (temperature) other than the
 * default 1 are not supported.
 */
export function isReasoningModelId(model: string): boolean {
  const gpt = /^gpt-(\d+)(?:\.\d+)?(-chat)?/.exec(model);
  return /^o\d/.test(model) || (gpt !== null && Number(gpt[1]) >= 5 && gpt[2] === undefined);
}

function checkReasoningParameters(body: ChatRequest): void {
  if (!isReasoningModelId(body.model)) return;
  if (body.max_tokens !== undefined) {
    throw new Refusal(
      "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
      "max_tokens",
      "unsupported_parameter",
    );
  }
  if (body.temperature !== undefined && body.temperature !== 1) {
    throw new Refusal(
      `Unsupported value: 'temperature' does not support ${String(body.temperature)} with this model. Only the default (1) value is supported.`,
      "temperature",
      "unsupported_value",
    );
  }
}

const ROLES = new Set(["system", "developer", "user", "assistant", "tool"]);
/** [ref] function names: "a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum length of 64". */
const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** [ref] messages: every tool call of an assistant message gets its tool message before the conversation goes on. */
function checkMessages(body: ChatRequest): void {
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    throw new Refusal("'messages' must be a non-empty array.", "messages", null);
  }
  let open: Set<string> | null = null;
  body.messages.forEach((message, i) => {
    if (!ROLES.has(message.role)) throw new Refusal(`Invalid value: '${message.role}'.`, `messages[${i}].role`, null);
    if (message.role === "tool") {
      const id = message.tool_call_id;
      if (typeof id !== "string" || !open?.has(id)) {
        throw new Refusal(
          "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          `messages[${i}].role`,
          null,
        );
      }
      open.delete(id);
      return;
    }
    if (open && open.size > 0) {
      throw new Refusal(
        "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'.",
        `messages[${i}].role`,
        null,
      );
    }
    open = null;
    if (message.role === "assistant" && message.tool_calls !== undefined) {
      const calls = message.tool_calls as {
        id?: unknown;
        type?: unknown;
        function?: { name?: unknown; arguments?: unknown };
      }[];
      if (!Array.isArray(calls)) throw new Refusal("Invalid 'tool_calls'.", `messages[${i}].tool_calls`, null);
      open = new Set();
      for (const call of calls) {
        if (
          typeof call.id !== "string" ||
          call.type !== "function" ||
          typeof call.function?.name !== "string" ||
          typeof call.function.arguments !== "string"
        ) {
          throw new Refusal("Invalid tool call shape.", `messages[${i}].tool_calls`, null);
        }
        open.add(call.id);
      }
    }
  });
  if (open && (open as Set<string>).size > 0) {
    throw new Refusal(
      "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'.",
      "messages",
      null,
    );
  }
}

/** [ref] tools: `{type: "function", function: {name, description?, parameters?, strict?}}`. */
function checkTools(body: ChatRequest): void {
  if (body.tools === undefined) return;
  const tools = body.tools as {
    type?: unknown;
    function?: { name?: unknown; parameters?: unknown; strict?: unknown };
  }[];
  if (!Array.isArray(tools)) throw new Refusal("Invalid 'tools'.", "tools", null);
  tools.forEach((tool, i) => {
    if (tool.type !== "function" || typeof tool.function?.name !== "string" || !NAME.test(tool.function.name)) {
      throw new Refusal(
        "Invalid tool: needs type 'function' and a function name of a-z, A-Z, 0-9, _ or -.",
        `tools[${i}]`,
        null,
      );
    }
    if (tool.function.strict === true && tool.function.parameters !== undefined) {
      checkStrictSchema(tool.function.parameters, `tools[${i}].function.parameters`, body.model);
    }
  });
}

/** [strict] Supported keywords; constraints are "not yet supported for fine-tuned models" (ids `ft:…`). */
const STRUCTURE = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "enum",
  "const",
  "anyOf",
  "$ref",
  "$defs",
  "definitions",
  "description",
  "title",
  "$schema",
]);
const CONSTRAINTS = new Set([
  "pattern",
  "format",
  "multipleOf",
  "maximum",
  "exclusiveMaximum",
  "minimum",
  "exclusiveMinimum",
  "minItems",
  "maxItems",
]);

/**
 * [strict] A strict schema: the root is an object (not anyOf); every object sets
 * `additionalProperties: false` and lists every property in `required` ("all fields must be
 * required"; optional is a union with null); only the supported keywords appear.
 */
export function checkStrictSchema(schema: unknown, where: string, model: string): void {
  const fineTuned = model.startsWith("ft:");
  const root = schema as Record<string, unknown>;
  if (root?.type !== "object")
    throw new Refusal(
      `Invalid schema for ${where}: schema must be a JSON Schema of 'type: "object"'.`,
      where,
      "invalid_json_schema",
    );
  const visit = (node: unknown, path: string[]) => {
    if (typeof node !== "object" || node === null) return;
    const n = node as Record<string, unknown>;
    const context = `In context=(${path.map((p) => `'${p}'`).join(", ")})`;
    for (const key of Object.keys(n)) {
      if (STRUCTURE.has(key)) continue;
      if (CONSTRAINTS.has(key) && !fineTuned) continue;
      throw new Refusal(
        `Invalid schema for ${where}: ${context}, '${key}' is not permitted.`,
        where,
        "invalid_json_schema",
      );
    }
    const types = Array.isArray(n.type) ? n.type : [n.type];
    if (types.includes("object") || n.properties !== undefined) {
      const keys = Object.keys((n.properties ?? {}) as object);
      if (n.additionalProperties !== false) {
        throw new Refusal(
          `Invalid schema for ${where}: ${context}, 'additionalProperties' is required to be supplied and to be false.`,
          where,
          "invalid_json_schema",
        );
      }
      const required = new Set(Array.isArray(n.required) ? (n.required as string[]) : []);
      const missing = keys.find((key) => !required.has(key));
      if (missing !== undefined) {
        throw new Refusal(
          `Invalid schema for ${where}: ${context}, 'required' is required to be supplied and to be an array including every key in properties. Missing '${missing}'.`,
          where,
          "invalid_json_schema",
        );
      }
      for (const key of keys) visit((n.properties as Record<string, unknown>)[key], [...path, "properties", key]);
    }
    if (n.items !== undefined) visit(n.items, [...path, "items"]);
    if (Array.isArray(n.anyOf)) {
      for (const [i, sub] of n.anyOf.entries()) visit(sub, [...path, "anyOf", String(i)]);
    }
    for (const defs of ["$defs", "definitions"] as const) {
      const d = n[defs];
      if (d && typeof d === "object") for (const [k, sub] of Object.entries(d)) visit(sub, [...path, defs, k]);
    }
  };
  visit(schema, []);
}

/** [ref] response_format json_schema: a name of a-z, A-Z, 0-9, _ or - (64 at most); strict → [strict]. */
function checkResponseFormat(body: ChatRequest): void {
  const format = body.response_format;
  if (format?.type !== "json_schema") return;
  const schema = format.json_schema;
  if (!schema || typeof schema.name !== "string" || !NAME.test(schema.name)) {
    throw new Refusal("Invalid 'response_format.json_schema.name'.", "response_format.json_schema.name", null);
  }
  if (schema.strict === true) checkStrictSchema(schema.schema, `response_format '${schema.name}'`, body.model);
}

export function checkChatRequest(body: ChatRequest): void {
  if (typeof body.model !== "string" || body.model === "")
    throw new Refusal("you must provide a model parameter", "model", null);
  checkMessages(body);
  checkTools(body);
  checkResponseFormat(body);
  checkReasoningParameters(body);
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

/** A deterministic 8-dimensional embedding (Lifeline zero-pads it to 1536). */
function embed(text: string): number[] {
  const v = Array.from({ length: 8 }, (_, i) => 1 + ((text.charCodeAt(i % Math.max(1, text.length)) || 0) % 7));
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

function defaultJson(name: string | undefined): unknown {
  if (name === "conversation_title") return { title: "A conversation" };
  if (name === "memory_title") return { title: "Bike lock code" };
  if (name === "memory_consolidation")
    return { action: "ADD", targetId: null, content: null, title: null, reason: "New." };
  return { memories: [] };
}

const sendJson = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
};

export async function startStrictOpenAi(
  respond: StrictOpenAi["respond"] = () => undefined,
  {
    port: listenPort = 0,
    embeddings,
  }: {
    port?: number;
    /** "hold": the embeddings request is never answered (until close()). */
    embeddings?: (body: Record<string, unknown>) => "hold" | undefined;
  } = {},
): Promise<StrictOpenAi> {
  const held = new Set<ServerResponse>();
  const requests: RecordedRequest[] = [];
  const fake: StrictOpenAi = { baseURL: "", requests, respond, close: async () => {} };
  let counter = 0;

  const server = createServer(async (req, res) => {
    const body = await readJson(req);
    const record: RecordedRequest = { path: req.url ?? "", body, refused: null };
    requests.push(record);
    if (req.url?.endsWith("/embeddings")) {
      if (embeddings?.(body) === "hold") return void held.add(res);
      const inputs = (Array.isArray(body.input) ? body.input : [body.input]) as string[];
      return sendJson(res, 200, {
        object: "list",
        model: body.model,
        data: inputs.map((input, index) => ({ object: "embedding", index, embedding: embed(String(input)) })),
        usage: { prompt_tokens: 1, total_tokens: 1 },
      });
    }
    if (!req.url?.endsWith("/chat/completions"))
      return sendJson(res, 404, { error: { message: "Not found", type: "invalid_request_error" } });
    const chat = body as ChatRequest;
    try {
      checkChatRequest(chat);
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      record.refused = error.message;
      return sendJson(res, 400, {
        error: { message: error.message, type: "invalid_request_error", param: error.param, code: error.code },
      });
    }
    const meta = { id: `chatcmpl-${++counter}`, model: chat.model, usage: { prompt_tokens: 5, completion_tokens: 7 } };
    const reply: Reply =
      fake.respond(chat, req.url) ??
      (chat.response_format?.type === "json_schema"
        ? { kind: "json", content: defaultJson(chat.response_format.json_schema?.name) }
        : { kind: "text", text: "Hello." });
    if (reply.kind === "hold") return void held.add(res);

    if (!chat.stream) {
      if (reply.kind === "cut") return void res.destroy();
      if (reply.kind === "error-event") return sendJson(res, 500, { error: reply.error });
      const whole = chatCompletionBody(
        reply.kind === "tool-calls"
          ? {
              content: null,
              tool_calls: reply.calls.map((c) => ({
                id: c.id,
                type: "function",
                function: { name: c.name, arguments: c.arguments },
              })),
            }
          : {
              content:
                reply.kind === "refusal"
                  ? null
                  : reply.kind === "json"
                    ? typeof reply.content === "string"
                      ? reply.content
                      : JSON.stringify(reply.content)
                    : reply.kind === "pieces"
                      ? reply.pieces.map((piece) => piece.text).join("")
                      : reply.text,
            },
        meta,
      );
      const choice = whole.choices[0] as Record<string, unknown> & { message: Record<string, unknown> };
      choice.message.refusal = reply.kind === "refusal" ? reply.refusal : null;
      if ((reply.kind === "text" || reply.kind === "json" || reply.kind === "pieces") && reply.finish !== undefined)
        choice.finish_reason = reply.finish;
      return sendJson(res, 200, whole);
    }

    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    res.write(completionChunk(meta, { role: "assistant", content: "" }));
    const streamText = async (text: string) => {
      for (const piece of textPieces(text)) {
        res.write(completionChunk(meta, { content: piece }));
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    const end = (finish: string | null) => {
      if (finish !== null) res.write(completionChunk(meta, {}, { finish }));
      if (body.stream_options && (body.stream_options as { include_usage?: boolean }).include_usage) {
        res.write(completionChunk(meta, null, { usage: meta.usage }));
      }
      res.write("data: [DONE]\n\n");
      res.end();
    };
    switch (reply.kind) {
      case "text":
        await streamText(reply.text);
        return end(reply.finish === undefined ? "stop" : reply.finish);
      case "json":
        await streamText(typeof reply.content === "string" ? reply.content : JSON.stringify(reply.content));
        return end(reply.finish ?? "stop");
      case "refusal":
        for (const piece of textPieces(reply.refusal)) res.write(completionChunk(meta, { refusal: piece }));
        return end("stop");
      case "tool-calls":
        for (const [index, call] of reply.calls.entries()) {
          res.write(
            completionChunk(meta, {
              tool_calls: [
                { index, id: call.id, type: "function", function: { name: call.name, arguments: call.arguments } },
              ],
            }),
          );
        }
        return end("tool_calls");
      case "error-event":
        await streamText(reply.text);
        res.write(`data: ${JSON.stringify({ error: reply.error })}\n\n`);
        return void res.end();
      case "pieces":
        for (const [i, piece] of reply.pieces.entries()) {
          if (i === reply.holdAfter) {
            held.add(res);
            return reply.onHeld?.();
          }
          if (piece.pauseBeforeMs) await new Promise((resolve) => setTimeout(resolve, piece.pauseBeforeMs));
          res.write(completionChunk(meta, { content: piece.text }));
        }
        if (reply.holdAfter === reply.pieces.length) {
          held.add(res);
          return reply.onHeld?.();
        }
        return end(reply.finish ?? "stop");
      case "cut":
        await streamText(reply.text);
        // Let the pieces reach the client before the connection goes.
        await new Promise((resolve) => setTimeout(resolve, 50));
        return void res.socket?.destroy();
    }
  });
  await new Promise<void>((resolve) => server.listen(listenPort, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  fake.baseURL = `http://127.0.0.1:${port}/v1`;
  fake.close = async () => {
    for (const res of held) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return fake;
}
