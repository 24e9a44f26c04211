/** The body of POST /api/mcp (app/api/mcp/route.ts). */
import { z } from "zod";

/**
 * One JSON-RPC message from an MCP client: a request (with an id) or a notification. The SDK's
 * transport checks the protocol itself; this is the route's rule for any JSON body — an object
 * with known fields, no batch (Streamable HTTP since 2025-06-18 sends one message per request),
 * no response (a stateless server never asks the client anything).
 */
export const mcpMessageBody = z.strictObject({
  jsonrpc: z.literal("2.0"),
  id: z.union([z.string().max(200), z.number().int()]).optional(),
  method: z.string().min(1).max(200),
  params: z.record(z.string(), z.json()).optional(),
});
