/**
 * Stateless (a new server and transport per request, JSON responses) so any instance answers any
 * request and nothing outlives the response. A call is recorded before its result is sent, and the
 * client receives exactly the text the record keeps.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  InitializeRequestSchema,
  isJSONRPCRequest,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  ListToolsRequestSchema,
  PingRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import type { Logger } from "@/core/logger";
import { insertMcpCall } from "@/db/queries/mcp-calls";
import { scopeAllows } from "@/lib/auth/access-tokens";
import { elapsedSince } from "@/lib/memory/retrieval/tools";
import { MCP_TOOLS, type McpToolContext, type McpToolSpec, type RecordCall, runTool } from "./tools";

/** A call naming another tool is not recorded. */
const TOOL_NAMES: ReadonlySet<unknown> = new Set(MCP_TOOLS.map((spec) => spec.name));

export const MCP_SERVER_NAME = "lifeline";
export const MCP_SERVER_VERSION = "1.0.0";

const INSTRUCTIONS =
  "Lifeline is the user's long-term memory. Before answering anything personal, call get_memory_context with the user's message; use search_memories or list_memories when that is not enough. With a read+write token, call remember when the user tells you something about themselves worth keeping, and forget when they ask you to.";

interface SentCall {
  tool: unknown;
  arguments: unknown;
}

/** As the client sent them: the SDK hands a tool the arguments its schema parsed (trimmed, defaulted). */
function sentCalls(body: unknown): Map<string | number, SentCall> {
  const sent = new Map<string | number, SentCall>();
  // One message per request (lib/validation/mcp.ts); an array is walked all the same.
  for (const message of Array.isArray(body) ? body : [body]) {
    if (typeof message !== "object" || message === null) continue;
    const { method, id, params } = message as {
      method?: unknown;
      id?: unknown;
      params?: { name?: unknown; arguments?: unknown };
    };
    if (method === "tools/call" && (typeof id === "string" || typeof id === "number")) {
      // Absent arguments are the empty object the SDK hands the tool; anything else, null included, as sent.
      const args = typeof params === "object" && params !== null && "arguments" in params ? params.arguments : {};
      sent.set(id, { tool: params?.name, arguments: args });
    }
  }
  return sent;
}

const REQUEST_SCHEMAS = new Map<string, z.ZodType>([
  ["initialize", InitializeRequestSchema],
  ["ping", PingRequestSchema],
  ["tools/list", ListToolsRequestSchema],
  ["tools/call", CallToolRequestSchema],
]);

/**
 * -32602 naming the first bad field: left to the SDK, params its schema refuses get -32603 internal
 * error with zod's multi-line dump.
 */
function invalidParams(message: JSONRPCMessage): JSONRPCErrorResponse | null {
  if (!isJSONRPCRequest(message)) return null;
  const parsed = REQUEST_SCHEMAS.get(message.method)?.safeParse(message);
  if (!parsed || parsed.success) return null;
  const issue = parsed.error.issues[0];
  const field = issue?.path.map(String).join(".") || "params";
  const problem = (issue?.message ?? "invalid").replace(/\s+/g, " ");
  return {
    jsonrpc: "2.0",
    id: message.id,
    error: { code: ErrorCode.InvalidParams, message: `Invalid params: ${field}: ${problem}` },
  };
}

export function createMcpServer(
  context: McpToolContext,
  log: Logger,
  sent: ReadonlyMap<string | number, SentCall> = new Map(),
  ran: Set<string | number> = new Set(),
  listed: (spec: McpToolSpec) => boolean = () => true,
): McpServer {
  const server = new McpServer({ name: MCP_SERVER_NAME, version: MCP_SERVER_VERSION }, { instructions: INSTRUCTIONS });
  for (const spec of MCP_TOOLS) {
    const registered = server.registerTool(
      spec.name,
      {
        title: spec.title,
        description: spec.description,
        inputSchema: spec.input,
        annotations: { readOnlyHint: !spec.writes, destructiveHint: spec.name === "forget", openWorldHint: false },
      },
      async (args: unknown, extra: { requestId: string | number }): Promise<CallToolResult> => {
        const start = performance.now();
        ran.add(extra.requestId);
        const record: RecordCall = async (db, outcome) => {
          const { result } = await insertMcpCall(db, {
            userId: context.userId,
            tokenId: context.token.id,
            tool: spec.name,
            arguments: sent.has(extra.requestId) ? sent.get(extra.requestId)?.arguments : args,
            result: outcome.text,
            isError: outcome.isError,
            trace: outcome.trace,
            memoryIds: outcome.memoryIds,
            returnedMemoryIds: outcome.returnedMemoryIds,
            latencyMs: elapsedSince(start),
          });
          return { ...outcome, recorded: result };
        };
        const outcome = await runTool(
          spec,
          context,
          args,
          (error) => log.error({ err: error, tool: spec.name }, "mcp tool failed"),
          record,
        );
        let recorded = outcome.recorded;
        try {
          recorded ??= (await record(context.db, outcome)).recorded;
        } catch (error) {
          // An unrecorded result is not sent (and the SDK would send the database's message as the text).
          log.error({ err: error, tool: spec.name }, "mcp call not recorded");
          return {
            content: [{ type: "text", text: `${spec.name} failed on Lifeline's side; the error was logged.` }],
            isError: true,
          };
        }
        return { content: [{ type: "text", text: recorded }], ...(outcome.isError ? { isError: true } : {}) };
      },
    );
    if (!listed(spec)) registered.disable();
  }
  return server;
}

function answeredText(message: { result?: unknown; error?: { message?: unknown } }): string {
  const content = (message.result as CallToolResult | undefined)?.content;
  const texts = (content ?? []).flatMap((part) => (part.type === "text" ? [part.text] : []));
  if (texts.length > 0) return texts.join("\n");
  return typeof message.error?.message === "string" ? message.error.message : JSON.stringify(message);
}

async function recordRefusedCalls(
  response: Response,
  sent: ReadonlyMap<string | number, SentCall>,
  ran: ReadonlySet<string | number>,
  context: McpToolContext,
  log: Logger,
  start: number,
): Promise<void> {
  const refused = [...sent].filter(([id, call]) => !ran.has(id) && TOOL_NAMES.has(call.tool));
  if (refused.length === 0 || !response.headers.get("content-type")?.includes("application/json")) return;
  const body = (await response.clone().json()) as unknown;
  const answers = new Map<unknown, { result?: unknown; error?: { message?: unknown } }>();
  for (const message of Array.isArray(body) ? body : [body]) {
    if (typeof message === "object" && message !== null) answers.set((message as { id?: unknown }).id, message);
  }
  for (const [id, call] of refused) {
    const answer = answers.get(id);
    if (!answer) continue;
    try {
      await insertMcpCall(context.db, {
        userId: context.userId,
        tokenId: context.token.id,
        tool: call.tool as string,
        arguments: call.arguments,
        result: answeredText(answer),
        isError: true,
        trace: null,
        memoryIds: [],
        returnedMemoryIds: [],
        latencyMs: elapsedSince(start),
      });
    } catch (error) {
      // The refusal carries no memory: it is still sent.
      log.error({ err: error, tool: call.tool }, "mcp refusal not recorded");
    }
  }
}

export async function handleMcpRequest(
  request: Request,
  body: unknown,
  context: McpToolContext,
  log: Logger,
): Promise<Response> {
  const start = performance.now();
  const sent = sentCalls(body);
  const ran = new Set<string | number>();
  // Only the listing leaves write tools out for a read token: a call of one still reaches it, to be
  // told why it is refused (requireWrite) instead of the SDK's "Tool remember disabled".
  const listing = (body as { method?: unknown }).method === "tools/list";
  const canWrite = scopeAllows(context.token.scope, "write");
  const server = createMcpServer(context, log, sent, ran, (spec) => !listing || !spec.writes || canWrite);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  try {
    await server.connect(transport);
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      const refused = invalidParams(message);
      if (!refused) return deliver?.(message, extra);
      transport.send(refused).catch((error: unknown) => log.error({ err: error }, "mcp refusal not sent"));
    };
    const response = await transport.handleRequest(request, { parsedBody: body });
    await recordRefusedCalls(response, sent, ran, context, log, start);
    return response;
  } finally {
    // With JSON responses the answer is complete here: nothing is left to stream.
    await server.close();
  }
}
