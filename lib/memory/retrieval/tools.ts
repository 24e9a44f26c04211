/**
 * For what injected context cannot answer: "what do you remember about me?" shares no word with any
 * single memory. The user id is bound here, never taken from the model.
 */
import { tool } from "ai";
import { and, asc, desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { memoryToolsConfig } from "@/core/config";
import type { Db } from "@/db/client";
import { queryErrorMessage } from "@/db/queries/errors";
import { MEMORY_TYPES, type MemoryType, memories } from "@/db/schema";
import { toolArguments } from "@/lib/validation/common";
import { requestString } from "@/lib/validation/strings";
import { recordAccess } from "./access";
import type { AssemblyConfig } from "./assembly-config";
import { retrieveSemantic, type SemanticCandidate } from "./retrieve";
import { float4 } from "./score";

import { LIST_MEMORIES, type MemoryToolName, type MemoryToolOutput, SEARCH_MEMORIES } from "./tool-contract";

export { LIST_MEMORIES, type MemoryToolName, type MemoryToolOutput, SEARCH_MEMORIES };

/** returned: sent to the model; dropped_limit / below_threshold: a search's losers, listed to explain. */
export type ToolMemoryFate = "returned" | "dropped_limit" | "below_threshold";

/** Plain JSON, like the rest of the trace. */
export interface ToolMemoryRow {
  memoryId: string;
  title: string | null;
  content: string;
  type?: string;
  importance: number;
  rank: number;
  similarity: number | null;
  score: number | null;
  relevance?: number;
  vectorRank?: number;
  textRank?: number | null;
  fate: ToolMemoryFate;
  redacted?: boolean;
}

export interface ToolCallTrace {
  toolCallId: string;
  tool: MemoryToolName;
  step: number;
  input: Record<string, unknown>;
  status: "ok" | "failed";
  error: string | null;
  rule: string;
  returned: number;
  matching?: number;
  memories: ToolMemoryRow[];
  accessCountedIds: string[];
  ms: number;
}

export interface MemoryToolContext {
  userId: string;
  retrieval: AssemblyConfig["retrieval"];
  embed: (text: string) => Promise<number[]>;
  embeddingModel: string;
  now: () => Date;
  /** So each memory counts once per answer. */
  counted: Set<string>;
  record: (call: ToolCallTrace) => void;
  step: () => number;
}

export const searchMemoriesInput = toolArguments({
  query: requestString()
    .trim()
    .min(1)
    .max(memoryToolsConfig.maxQueryChars)
    .describe("What to look for, in words (e.g. 'dietary preferences', 'work deadlines')."),
});

export const listMemoriesInput = toolArguments({
  type: z
    .enum(MEMORY_TYPES)
    .optional()
    .describe("Only memories of this type; omit for all types (e.g. 'what do you know about me?')."),
  limit: z
    .number()
    .int()
    .min(1)
    .max(memoryToolsConfig.listMaxLimit)
    .optional()
    .describe(`How many, at most (default ${memoryToolsConfig.listDefaultLimit}).`),
});

export function elapsedSince(start: number): number {
  return Math.round((performance.now() - start) * 100) / 100;
}

export interface ToolRunResult {
  output: MemoryToolOutput;
  rows: ToolMemoryRow[];
  accessCountedIds: string[];
  matching?: number;
}

/** The chat's turn and the MCP server record the same shape. */
export function succeededToolCall(call: {
  toolCallId: string;
  tool: MemoryToolName;
  step: number;
  input: Record<string, unknown>;
  rule: string;
  result: ToolRunResult;
  ms: number;
}): ToolCallTrace {
  const { result, ...rest } = call;
  return {
    ...rest,
    status: "ok",
    error: null,
    returned: result.output.memories.length,
    ...(result.matching === undefined ? {} : { matching: result.matching }),
    memories: result.rows,
    accessCountedIds: result.accessCountedIds,
  };
}

function countMemories(n: number, kind = ""): string {
  return `${n} ${n === 1 ? "memory" : "memories"}${kind}`;
}

export function listRule(type: MemoryType | undefined, limit: number): string {
  return `${type ? `active memories of type ${type}` : "all active memories"}, the most important first, then the most recently updated; at most ${limit}`;
}

export function searchRule(retrieval: AssemblyConfig["retrieval"]): string {
  const threshold =
    retrieval.similarityThreshold <= -1 ? "no similarity threshold" : `similarity ≥ ${retrieval.similarityThreshold}`;
  return `the ${retrieval.strategy ?? "configured"} retrieval strategy (${threshold}${retrieval.fusion ? ", vector and word rankings fused" : ""}); the top ${retrieval.semanticLimit} by score`;
}

function searchRow(candidate: SemanticCandidate, fate: ToolMemoryFate): ToolMemoryRow {
  return {
    memoryId: candidate.id,
    title: candidate.title,
    content: candidate.content,
    importance: candidate.importance,
    rank: candidate.rank,
    similarity: candidate.similarity,
    score: candidate.score,
    ...(candidate.relevance === undefined
      ? {}
      : {
          relevance: candidate.relevance,
          vectorRank: candidate.vectorRank ?? 0,
          textRank: candidate.textRank ?? null,
        }),
    fate,
  };
}

async function countAccess(
  db: Db,
  context: Pick<MemoryToolContext, "userId" | "now" | "counted">,
  ids: readonly string[],
): Promise<string[]> {
  const fresh = ids.filter((id) => !context.counted.has(id));
  // Claimed before the write: the calls of one step run in parallel, and a memory two of them
  // return is counted by whichever claims it first.
  for (const id of fresh) context.counted.add(id);
  try {
    await recordAccess(db, { userId: context.userId, memoryIds: fresh, now: context.now() });
  } catch (error) {
    for (const id of fresh) context.counted.delete(id);
    throw error;
  }
  return fresh;
}

export async function searchMemories(
  db: Db,
  context: Omit<MemoryToolContext, "record" | "step">,
  input: z.output<typeof searchMemoriesInput>,
): Promise<{ output: MemoryToolOutput; rows: ToolMemoryRow[]; accessCountedIds: string[] }> {
  const embedding = await context.embed(input.query);
  const result = await retrieveSemantic(db, {
    userId: context.userId,
    embedding,
    embeddingModel: context.embeddingModel,
    text: input.query,
    now: context.now(),
    config: context.retrieval,
  });
  const returned = result.candidates.filter((candidate) => candidate.selected);
  const accessCountedIds = await countAccess(
    db,
    context,
    returned.map((candidate) => candidate.id),
  );
  const rows = [
    ...result.candidates.map((candidate) => searchRow(candidate, candidate.selected ? "returned" : "dropped_limit")),
    ...result.nearMisses.map((candidate) => searchRow(candidate, "below_threshold")),
  ];
  return {
    output: {
      memories: returned.map(({ id, title, content }) => ({ id, title, content })),
      note: `${countMemories(returned.length)} matched "${input.query}"`,
    },
    rows,
    accessCountedIds,
  };
}

export async function listMemoriesTool(
  db: Db,
  context: Pick<MemoryToolContext, "userId" | "now" | "counted">,
  input: z.output<typeof listMemoriesInput>,
): Promise<{
  output: MemoryToolOutput;
  rows: ToolMemoryRow[];
  accessCountedIds: string[];
  matching: number;
  limit: number;
}> {
  const limit = input.limit ?? memoryToolsConfig.listDefaultLimit;
  const filter = and(
    eq(memories.userId, context.userId),
    eq(memories.status, "active"),
    input.type ? eq(memories.type, input.type) : undefined,
  );
  const found = await db
    .select({
      id: memories.id,
      title: memories.title,
      content: memories.content,
      type: memories.type,
      importance: memories.importance,
      matching: sql<number>`(count(*) OVER ())::int`,
    })
    .from(memories)
    .where(filter)
    .orderBy(desc(memories.importance), desc(memories.updatedAt), asc(memories.id))
    .limit(limit);
  const accessCountedIds = await countAccess(
    db,
    context,
    found.map((row) => row.id),
  );
  const matching = found[0]?.matching ?? 0;
  const rows: ToolMemoryRow[] = found.map((row, index) => ({
    memoryId: row.id,
    title: row.title,
    content: row.content,
    type: row.type,
    importance: float4(row.importance),
    rank: index + 1,
    similarity: null,
    score: null,
    fate: "returned",
  }));
  const kind = input.type ? ` of type ${input.type}` : "";
  return {
    output: {
      memories: found.map(({ id, title, content, type }) => ({ id, title, content, type })),
      note:
        matching > found.length
          ? `the ${found.length} most important of ${countMemories(matching, kind)}`
          : countMemories(found.length, kind),
    },
    rows,
    accessCountedIds,
    matching,
    limit,
  };
}

/** A failed call is recorded too; the model receives it as a tool error and the answer goes on. */
export function memoryTools(db: Db, context: MemoryToolContext) {
  const traced = async <T extends Record<string, unknown>>(
    name: MemoryToolName,
    toolCallId: string,
    input: T,
    rule: string,
    run: () => Promise<ToolRunResult>,
  ): Promise<MemoryToolOutput> => {
    const step = context.step();
    const start = performance.now();
    try {
      const result = await run();
      context.record(succeededToolCall({ toolCallId, tool: name, step, input, rule, result, ms: elapsedSince(start) }));
      return result.output;
    } catch (error) {
      const message = queryErrorMessage(error);
      context.record({
        toolCallId,
        tool: name,
        step,
        input,
        status: "failed",
        error: message,
        rule,
        returned: 0,
        memories: [],
        accessCountedIds: [],
        ms: elapsedSince(start),
      });
      throw new Error(`${name} failed: ${message}`);
    }
  };

  return {
    [SEARCH_MEMORIES]: tool({
      description:
        "Search the user's saved memories by meaning and words. Use it when the memories already in the system prompt do not cover what the user asks about.",
      inputSchema: searchMemoriesInput,
      execute: (input, { toolCallId }) =>
        traced(SEARCH_MEMORIES, toolCallId, input, searchRule(context.retrieval), () =>
          searchMemories(db, context, input),
        ),
    }),
    [LIST_MEMORIES]: tool({
      description:
        "List the user's saved memories, the most important first, optionally of one type (personal, preference, goal, insight, fact, context, actionable, event, decision). Use it for overview questions such as 'what do you know about me?' or 'what are my goals?'.",
      inputSchema: listMemoriesInput,
      execute: (input, { toolCallId }) =>
        traced(
          LIST_MEMORIES,
          toolCallId,
          input,
          listRule(input.type, input.limit ?? memoryToolsConfig.listDefaultLimit),
          () => listMemoriesTool(db, context, input),
        ),
    }),
  };
}
