import { AppError } from "@/core/errors";
import { route } from "@/lib/api/route";
import { handleMcpRequest } from "@/lib/mcp/server";
import { processAssemblyConfig } from "@/lib/runtime";
import { mcpMessageBody } from "@/lib/validation/mcp";

/**
 * POST /api/mcp: the MCP server (Streamable HTTP, stateless, JSON responses; docs/mcp.md), for a
 * personal access token only (`Authorization: Bearer llt_…`): any scope opens it, and the write
 * tools answer a tool error to a read-only token. The body is one JSON-RPC message, read, size-
 * checked and validated by the route wrapper like every JSON body, then handed to the SDK.
 * GET and DELETE (a server-sent stream, a session's end) do not exist without sessions: 405.
 */
export const POST = route(
  { bearer: "read", body: mcpMessageBody },
  async ({ db, ai, userId, token, body, request, log }) => {
    if (!token) {
      throw new AppError(
        "forbidden:session",
        "The MCP server takes a personal access token (Authorization: Bearer llt_…), not a browser session",
      );
    }
    return handleMcpRequest(
      request,
      body,
      {
        db,
        userId,
        token,
        embedText: (text) => ai.embedText(text),
        embedTexts: (texts) => ai.embedTexts(texts),
        embeddingModel: ai.describeProviders().embedder,
        model: () => ai.getExtractionModel(),
        assembly: processAssemblyConfig(),
        now: () => new Date(),
      },
      log,
    );
  },
);
