import { AppError } from "@/core/errors";
import { route } from "@/lib/api/route";
import { handleMcpRequest } from "@/lib/mcp/server";
import { processAssemblyConfig } from "@/lib/runtime";
import { mcpMessageBody } from "@/lib/validation/mcp";

/**
 * Stateless Streamable HTTP (docs/mcp.md), bearer tokens only; write tools answer a tool error to a read-only
 * token. Without sessions GET and DELETE do not exist: 405.
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
