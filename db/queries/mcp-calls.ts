/**
 * Delete means gone here too: a deleted memory's text leaves the result, trace and `remember` arguments of every
 * call mentioning it. The result is JSON the server wrote, so it is rewritten by parsing, never by text search.
 */
import { and, desc, eq, sql } from "drizzle-orm";
import { notFound } from "@/core/errors";
import type { Db } from "@/db/client";
import { accessTokens, mcpCalls, memories } from "@/db/schema";
import { redactMcpCall } from "./mcp-call-redaction";
import { lockGoneMemories, validMemoryIds } from "./redaction";

export interface NewMcpCall {
  userId: string;
  tokenId: string;
  tool: string;
  arguments: unknown;
  result: string;
  isError: boolean;
  trace: unknown;
  memoryIds: readonly string[];
  returnedMemoryIds: readonly string[];
  latencyMs: number;
}

export interface McpCallRecord {
  id: string;
  tokenId: string;
  tokenName: string;
  tool: string;
  arguments: unknown;
  result: string;
  isError: boolean;
  trace: unknown;
  memoryIds: string[];
  returnedMemoryIds: string[];
  latencyMs: number;
  createdAt: Date;
}

export type McpCallSummary = Omit<McpCallRecord, "trace">;

/** Under lockGoneMemories: a memory deleted while the call ran is redacted before the row is written. */
export async function insertMcpCall(db: Db, call: NewMcpCall): Promise<{ id: string; result: string }> {
  return db.transaction(async (tx) => {
    const gone = await lockGoneMemories(tx, { userId: call.userId, memoryIds: call.memoryIds });
    const row = redactMcpCall(call, gone);
    const [inserted] = await tx
      .insert(mcpCalls)
      .values({
        userId: row.userId,
        tokenId: row.tokenId,
        tool: row.tool,
        arguments: row.arguments === undefined ? {} : row.arguments,
        result: row.result,
        isError: row.isError,
        trace: row.trace ?? null,
        memoryIds: validMemoryIds(row.memoryIds),
        returnedMemoryIds: validMemoryIds(row.returnedMemoryIds),
        latencyMs: row.latencyMs,
      })
      .returning({ id: mcpCalls.id, result: mcpCalls.result });
    if (!inserted) throw new Error("mcp call: no row returned");
    return inserted;
  });
}

const summaryColumns = {
  id: mcpCalls.id,
  tokenId: mcpCalls.tokenId,
  tokenName: accessTokens.name,
  tool: mcpCalls.tool,
  arguments: mcpCalls.arguments,
  result: mcpCalls.result,
  isError: mcpCalls.isError,
  memoryIds: mcpCalls.memoryIds,
  returnedMemoryIds: mcpCalls.returnedMemoryIds,
  latencyMs: mcpCalls.latencyMs,
  createdAt: mcpCalls.createdAt,
};

export async function listMcpCalls(
  db: Db,
  { userId, limit }: { userId: string; limit: number },
): Promise<McpCallSummary[]> {
  return db
    .select(summaryColumns)
    .from(mcpCalls)
    .innerJoin(accessTokens, eq(accessTokens.id, mcpCalls.tokenId))
    .where(eq(mcpCalls.userId, userId))
    .orderBy(desc(mcpCalls.createdAt), desc(mcpCalls.id))
    .limit(limit);
}

export async function getMcpCall(
  db: Db,
  { userId, callId }: { userId: string; callId: string },
): Promise<McpCallRecord> {
  const [row] = await db
    .select({ ...summaryColumns, trace: mcpCalls.trace })
    .from(mcpCalls)
    .innerJoin(accessTokens, eq(accessTokens.id, mcpCalls.tokenId))
    .where(and(eq(mcpCalls.id, callId), eq(mcpCalls.userId, userId)))
    .limit(1);
  if (!row) throw notFound("mcp_call");
  return row;
}

/** "read by ‹token›" on the memory card: tokens whose calls returned the memory (GIN-indexed). */
export const readByColumn = sql<string[]>`coalesce((
  SELECT jsonb_agg(DISTINCT t.name ORDER BY t.name)
  FROM ${mcpCalls} c JOIN ${accessTokens} t ON t.id = c.token_id
  WHERE c.user_id = ${memories.userId} AND c.returned_memory_ids @> jsonb_build_array(${memories.id}::text)
), '[]'::jsonb)`;

export const sourceTokenNameColumn = sql<string | null>`(
  SELECT t.name FROM ${accessTokens} t
  WHERE t.id = ${memories.sourceAccessTokenId} AND t.user_id = ${memories.userId}
)`;
