/**
 * The MCP server of POST /api/mcp (docs/mcp.md): the official TypeScript SDK's McpServer over its
 * web-standard Streamable HTTP transport, stateless — a new server and transport per request, no
 * session id, JSON responses — so any instance (a Vercel function) answers any request and
 * nothing outlives the response.
 *
 * Each tool call runs lib/mcp/tools.ts and is recorded (db/queries/mcp-calls.ts) before its result
 * is sent: the client receives the text the record keeps (a memory deleted while the call ran is
 * redacted from both).
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "@/core/logger";
import { insertMcpCall } from "@/db/queries/mcp-calls";
import { MCP_TOOLS, type McpToolContext, runTool } from "./tools";

export const MCP_SERVER_NAME = "lifeline";
export const MCP_SERVER_VERSION = "1.0.0";

const INSTRUCTIONS =
  "Lifeline is the user's long-term memory. Before answering anything personal, call get_memory_context with the user's message; use search_memories or list_memories when that is not enough. With a read+write token, call remember when the user tells you something about themselves worth keeping, and forget when they ask you to.";

function elapsedSince(start: number): number {
  return Math.round((performance.now() - start) * 100) / 100;
}

/**
 * The arguments of each tools/call in a request body, by JSON-RPC id, as the client sent them (the
 * SDK hands a tool the arguments its schema parsed: trimmed, defaulted).
 */
function sentArguments(body: unknown): Map<string | number, unknown> {
  const sent = new Map<string | number, unknown>();
  // One message per request (lib/validation/mcp.ts); an array is walked all the same.
  for (const message of Array.isArray(body) ? body : [body]) {
    if (typeof message !== "object" || message === null) continue;
    const { method, id, params } = message as { method?: unknown; id?: unknown; params?: { arguments?: unknown } };
    if (method === "tools/call" && (typeof id === "string" || typeof id === "number")) {
      sent.set(id, params?.arguments ?? {});
    }
  }
  return sent;
}

/** A server with the five tools, bound to one request's user and token. */
export function createMcpServer(
  context: McpToolContext,
  log: Logger,
  sent: ReadonlyMap<string | number, unknown> = new Map(),
): McpServer {
  const server = new McpServer({ name: MCP_SERVER_NAME, version: MCP_SERVER_VERSION }, { instructions: INSTRUCTIONS });
  for (const spec of MCP_TOOLS) {
    server.registerTool(
      spec.name,
      {
        title: spec.title,
        description: spec.description,
        inputSchema: spec.input,
        annotations: { readOnlyHint: !spec.writes, destructiveHint: spec.name === "forget", openWorldHint: false },
      },
      async (args: unknown, extra: { requestId: string | number }): Promise<CallToolResult> => {
        const start = performance.now();
        const outcome = await runTool(spec, context, args, (error) =>
          log.error({ err: error, tool: spec.name }, "mcp tool failed"),
        );
        let recorded: string;
        try {
          ({ result: recorded } = await insertMcpCall(context.db, {
            userId: context.userId,
            tokenId: context.token.id,
            tool: spec.name,
            arguments: sent.get(extra.requestId) ?? args,
            result: outcome.text,
            isError: outcome.isError,
            trace: outcome.trace,
            memoryIds: outcome.memoryIds,
            returnedMemoryIds: outcome.returnedMemoryIds,
            latencyMs: elapsedSince(start),
          }));
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
  }
  return server;
}

/** Answers one Streamable HTTP request (its JSON body already read and parsed by the route wrapper). */
export async function handleMcpRequest(
  request: Request,
  body: unknown,
  context: McpToolContext,
  log: Logger,
): Promise<Response> {
  const server = createMcpServer(context, log, sentArguments(body));
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  try {
    await server.connect(transport);
    return await transport.handleRequest(request, { parsedBody: body });
  } finally {
    // With JSON responses the answer is complete here: nothing is left to stream.
    await server.close();
  }
}
