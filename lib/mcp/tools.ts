/**
 * SDK-free; each tool runs the chat's own code. Every result is JSON with a `memories` array of
 * `{ id, … }` entries: db/queries/mcp-call-redaction.ts relies on it.
 */
import type { LanguageModelV4 } from "@ai-sdk/provider";
import type { z } from "zod";
import { formatterConfig } from "@/core/config";
import { isAppError } from "@/core/errors";
import type { Db } from "@/db/client";
import { deleteMemory } from "@/db/queries/memories";
import { getAccount } from "@/db/queries/users";
import type { AccessTokenScope } from "@/db/schema";
import { scopeAllows } from "@/lib/auth/access-tokens";
import { assembleContext } from "@/lib/memory/retrieval/assemble";
import { type AssemblyConfig, forEmbedder } from "@/lib/memory/retrieval/assembly-config";
import {
  elapsedSince,
  LIST_MEMORIES,
  listMemoriesInput,
  listMemoriesTool,
  listRule,
  type MemoryToolName,
  SEARCH_MEMORIES,
  searchMemories,
  searchMemoriesInput,
  searchRule,
  succeededToolCall,
  type ToolCallTrace,
} from "@/lib/memory/retrieval/tools";
import type { ContextTrace, TraceCandidate } from "@/lib/memory/retrieval/trace";
import { MESSAGE_MAX } from "@/lib/validation/chat";
import { toolArguments, uuid } from "@/lib/validation/common";
import { memoryCreateBody } from "@/lib/validation/memories";
import { text } from "@/lib/validation/strings";
import { rememberMemory } from "./remember";

export const GET_MEMORY_CONTEXT = "get_memory_context";
export const REMEMBER = "remember";
export const FORGET = "forget";
export type McpToolName = typeof GET_MEMORY_CONTEXT | MemoryToolName | typeof REMEMBER | typeof FORGET;

export interface McpToolContext {
  db: Db;
  userId: string;
  token: { id: string; name: string; scope: AccessTokenScope };
  embedText: (text: string) => Promise<number[]>;
  embedTexts: (texts: string[]) => Promise<number[][]>;
  embeddingModel: string;
  model: () => LanguageModelV4;
  assembly: AssemblyConfig;
  now: () => Date;
}

export interface ToolOutcome {
  text: string;
  isError: boolean;
  trace: ContextTrace | ToolCallTrace | null;
  memoryIds: string[];
  returnedMemoryIds: string[];
  recorded?: string;
}

export type RecordCall = (db: Db, outcome: ToolOutcome) => Promise<ToolOutcome & { recorded: string }>;

export const getMemoryContextInput = toolArguments({
  message: text({ max: MESSAGE_MAX, multiline: true }).describe(
    "The user's message, as they wrote it: the memories are chosen for it.",
  ),
});

export const rememberInput = toolArguments({
  content: memoryCreateBody.shape.content.describe(
    "The fact to remember about the user, in one self-contained sentence (e.g. 'Prefers window seats on long flights').",
  ),
  type: memoryCreateBody.shape.type.describe(
    "What kind of memory: personal, preference, goal, insight, fact, context, actionable, event or decision (default fact).",
  ),
});

export const forgetInput = toolArguments({
  memory_id: uuid.describe("The id of the memory to delete, as another tool returned it."),
});

class ToolRefusal extends Error {}

const ok = (
  output: unknown,
  trace: ToolOutcome["trace"],
  memoryIds: string[],
  returnedMemoryIds = memoryIds,
): ToolOutcome => ({
  text: JSON.stringify(output),
  isError: false,
  trace,
  memoryIds: [...new Set(memoryIds)],
  returnedMemoryIds: [...new Set(returnedMemoryIds)],
});

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function whyChosen(rows: readonly TraceCandidate[]): string {
  const reasons = rows
    .filter((row) => row.selectedBy.includes(row.branch))
    .map((row) => {
      if (row.branch === "pinned") return "pinned by the user";
      if (row.branch === "conversation") return "saved in this conversation";
      const similarity = row.similarity === null ? "" : `similarity ${row.similarity.toFixed(3)}, `;
      return `relevant to the message (${similarity}score ${row.score?.toFixed(3) ?? "—"}, rank ${row.rank})`;
    });
  return [...new Set(reasons)].join("; ");
}

async function getMemoryContext(
  context: McpToolContext,
  input: z.output<typeof getMemoryContextInput>,
): Promise<ToolOutcome> {
  const account = await getAccount(context.db, { userId: context.userId });
  const { trace, memoryLines } = await assembleContext(context.db, {
    userId: context.userId,
    userName: account.name,
    conversationId: null,
    message: input.message,
    history: [],
    mode: "conversational",
    memoryEnabled: true,
    embed: context.embedText,
    embeddingModel: context.embeddingModel,
    now: context.now(),
    config: context.assembly,
  });
  const memories = memoryLines.map(({ memoryId, line }) => ({
    id: memoryId,
    line,
    why: whyChosen(trace.candidates.filter((row) => row.memoryId === memoryId)),
  }));
  const note =
    trace.status === "ok"
      ? `${plural(memories.length, "memory line")}: what Lifeline's chat would put in its system prompt for this message`
      : `Memory retrieval ${trace.status === "failed" ? `failed (${trace.error})` : "is off"}: no memory lines`;
  return ok(
    { status: trace.status, memories, note },
    trace,
    trace.candidates.map((row) => row.memoryId),
    memories.map((memory) => memory.id),
  );
}

function memoryToolContext(context: McpToolContext) {
  return {
    userId: context.userId,
    retrieval: forEmbedder(context.assembly.retrieval, context.embeddingModel),
    embed: context.embedText,
    embeddingModel: context.embeddingModel,
    now: context.now,
    // Each MCP call is one consumer's input: its memories count once, in this call.
    counted: new Set<string>(),
  };
}

async function search(context: McpToolContext, input: z.output<typeof searchMemoriesInput>): Promise<ToolOutcome> {
  const start = performance.now();
  const tools = memoryToolContext(context);
  const result = await searchMemories(context.db, tools, input);
  const trace = succeededToolCall({
    toolCallId: "",
    tool: SEARCH_MEMORIES,
    step: 0,
    input,
    rule: searchRule(tools.retrieval),
    result,
    ms: elapsedSince(start),
  });
  return ok(
    result.output,
    trace,
    result.rows.map((row) => row.memoryId),
    result.output.memories.map((memory) => memory.id),
  );
}

async function list(context: McpToolContext, input: z.output<typeof listMemoriesInput>): Promise<ToolOutcome> {
  const start = performance.now();
  const result = await listMemoriesTool(context.db, memoryToolContext(context), input);
  const trace = succeededToolCall({
    toolCallId: "",
    tool: LIST_MEMORIES,
    step: 0,
    input,
    rule: listRule(input.type, result.limit),
    result,
    ms: elapsedSince(start),
  });
  return ok(
    result.output,
    trace,
    result.rows.map((row) => row.memoryId),
  );
}

function requireWrite(context: McpToolContext, tool: string): void {
  if (!scopeAllows(context.token.scope, "write")) {
    throw new ToolRefusal(
      `This access token is read-only: ${tool} needs a read+write token (Settings → Access tokens).`,
    );
  }
}

/** Recorded in the write's transaction: the client is never told a write failed while it stood. */
async function remember(
  context: McpToolContext,
  input: z.output<typeof rememberInput>,
  record: RecordCall,
): Promise<ToolOutcome> {
  requireWrite(context, REMEMBER);
  const { committed } = await rememberMemory(context.db, {
    userId: context.userId,
    token: context.token,
    content: input.content,
    type: input.type,
    model: context.model(),
    embed: context.embedTexts,
    embeddingModel: context.embeddingModel,
    now: context.now(),
    beforeCommit: (tx, outcome) =>
      record(
        tx,
        ok(
          { action: outcome.action, memories: outcome.memories, note: outcome.note },
          null,
          outcome.memories.map((memory) => memory.id),
        ),
      ),
  });
  return committed;
}

async function forget(
  context: McpToolContext,
  input: z.output<typeof forgetInput>,
  record: RecordCall,
): Promise<ToolOutcome> {
  requireWrite(context, FORGET);
  return context.db.transaction(async (tx) => {
    const memory = await deleteMemory(tx, { userId: context.userId, memoryId: input.memory_id });
    const outcome = ok(
      {
        memories: [{ id: memory.id, status: memory.status }],
        note: "Deleted: it is no longer retrieved, and its text is gone from Lifeline's records of what it sent.",
      },
      null,
      [memory.id],
      [],
    );
    return record(tx, outcome);
  });
}

export interface McpToolSpec<S extends z.ZodObject = z.ZodObject> {
  name: McpToolName;
  title: string;
  description: string;
  input: S;
  writes: boolean;
  run: (context: McpToolContext, input: z.output<S>, record: RecordCall) => Promise<ToolOutcome>;
}

const spec = <S extends z.ZodObject>(tool: McpToolSpec<S>) => tool as unknown as McpToolSpec;

export const MCP_TOOLS: readonly McpToolSpec[] = [
  spec({
    name: GET_MEMORY_CONTEXT,
    title: "Get memory context",
    description:
      "Call this first, with the user's message, before answering anything personal. Returns the memory lines Lifeline's own chat would put in its system prompt for that message " +
      `(at most ${formatterConfig.maxMemories}), each with its memory id and why it was chosen. Treat them as what you know about the user.`,
    input: getMemoryContextInput,
    writes: false,
    run: getMemoryContext,
  }),
  spec({
    name: SEARCH_MEMORIES,
    title: "Search memories",
    description:
      "Search the user's saved memories by meaning and words. Use it when the memory context does not cover what the user asks about. Returns the matching memories (id, title, content).",
    input: searchMemoriesInput,
    writes: false,
    run: search,
  }),
  spec({
    name: LIST_MEMORIES,
    title: "List memories",
    description:
      "List the user's saved memories, the most important first, optionally of one type (personal, preference, goal, insight, fact, context, actionable, event, decision). Use it for overview questions such as 'what do you know about me?'.",
    input: listMemoriesInput,
    writes: false,
    run: list,
  }),
  spec({
    name: REMEMBER,
    title: "Remember",
    description:
      "Save something the user told you about themselves that will matter later (a preference, a goal, a fact about their life). Lifeline compares it with what it already knows: a repeat is skipped, a changed fact replaces the old one. Needs a read+write token.",
    input: rememberInput,
    writes: true,
    run: remember,
  }),
  spec({
    name: FORGET,
    title: "Forget",
    description:
      "Delete one of the user's memories by its id, when the user asks you to forget it or says it is wrong. Needs a read+write token.",
    input: forgetInput,
    writes: true,
    run: forget,
  }),
];

/** A tool error is a sentence for the model, never a stack. */
export async function runTool(
  spec: McpToolSpec,
  context: McpToolContext,
  input: unknown,
  onUnexpected: (error: unknown) => void,
  record: RecordCall,
): Promise<ToolOutcome> {
  const failed = (text: string): ToolOutcome => ({
    text,
    isError: true,
    trace: null,
    memoryIds: [],
    returnedMemoryIds: [],
  });
  const parsed = spec.input.safeParse(input);
  if (!parsed.success) {
    return failed(
      `Invalid arguments: ${parsed.error.issues.map((issue) => `${issue.path.join(".") || "input"}: ${issue.message}`).join("; ")}`,
    );
  }
  try {
    return await spec.run(context, parsed.data, record);
  } catch (error) {
    if (error instanceof ToolRefusal) return failed(error.message);
    if (isAppError(error) && error.code !== "internal") return failed(error.message);
    onUnexpected(error);
    return failed(`${spec.name} failed on Lifeline's side; the error was logged.`);
  }
}
