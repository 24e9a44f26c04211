import { z } from "zod";

/**
 * No batch (Streamable HTTP since 2025-06-18 sends one message per request) and no response (a
 * stateless server never asks the client anything).
 */
export const mcpMessageBody = z.strictObject({
  jsonrpc: z.literal("2.0"),
  id: z.union([z.string().max(200), z.number().int()]).optional(),
  method: z.string().min(1).max(200),
  params: z.record(z.string(), z.json()).optional(),
});
