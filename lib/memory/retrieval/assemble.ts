/**
 * assembleContext(): the whole pipeline for one chat turn — conversation branch, embedding,
 * semantic branch, pinned branch, merge, formatter, access accounting, prompt builder — and the
 * trace of every step.
 * Text model and Gmail agent alike consume its `messages`.
 */
import type { ModelMessage } from "ai";
import type { Db } from "@/db/client";
import { unwrapQueryError } from "@/db/queries/errors";
import type { ChatMode } from "@/db/schema";
import { recordAccess } from "./access";
import { type AssemblyConfig, DEFAULT_ASSEMBLY_CONFIG, forEmbedder } from "./assembly-config";
import { type ConversationCandidate, retrieveConversationMemories } from "./conversation-branch";
import { formatMemories } from "./format";
import { mergeBranches } from "./merge";
import { type PinnedCandidate, retrievePinnedMemories } from "./pinned-branch";
import { buildPrompt, type HistoryMessage, type MemorySection } from "./prompt";
import { retrieveSemantic, type SemanticResult } from "./retrieve";
import { type ContextTrace, type FailedStage, traceCandidates } from "./trace";

export interface AssembleInput {
  userId: string;
  userName?: string | null;
  /** The current conversation; without it the conversation branch does not run. */
  conversationId?: string | null;
  /** The new user message. */
  message: string;
  /** Earlier messages of the conversation, oldest first, without the new message. */
  history: readonly HistoryMessage[];
  mode: ChatMode;
  /** false (temporary chat): no retrieval at all, status `disabled`. */
  memoryEnabled: boolean;
  /** The embedder for the new message (injected: the provider registry in the app, a fixture in tests). */
  embed: (text: string) => Promise<number[]>;
  /**
   * The id of `embed`'s model, as stored in memories.embedding_model (the registry's
   * `describeProviders().embedder`): only memories it embedded are compared, with its threshold.
   */
  embeddingModel: string;
  /** Recency is measured from this instant; default: now. */
  now?: Date;
  /**
   * Default true: every memory whose line is in the prompt gets access_count + 1 and
   * last_accessed_at = now, once, whichever branches chose it. false (previews): nothing is written.
   */
  countAccess?: boolean;
  config?: AssemblyConfig;
}

export interface AssembledContext {
  /** The system message, the history that fit the budget, the new user message. */
  messages: ModelMessage[];
  trace: ContextTrace;
}

type Timings = Required<Omit<ContextTrace["timings"], "totalMs">>;

const noTimings = (): Timings => ({
  embedMs: null,
  semanticSqlMs: null,
  conversationSqlMs: null,
  pinnedSqlMs: null,
  accessSqlMs: null,
});

type Retrieval =
  | {
      status: "ok";
      semantic: SemanticResult;
      conversation: ConversationCandidate[] | null;
      pinned: PinnedCandidate[] | null;
      timings: Timings;
    }
  | { status: "failed"; error: string; failedStage: FailedStage; timings: Timings }
  | { status: "disabled"; timings: Timings };

/**
 * Builds the model input for one chat turn and the trace explaining it. Never throws for a
 * retrieval problem: a failing embedder or database gives status `failed` with the error and a
 * prompt without memories (not a "nothing matched" prompt), and the chat goes on.
 */
export async function assembleContext(db: Db, input: AssembleInput): Promise<AssembledContext> {
  const started = performance.now();
  const now = input.now ?? new Date();
  const given = input.config ?? DEFAULT_ASSEMBLY_CONFIG;
  const config: AssemblyConfig = { ...given, retrieval: forEmbedder(given.retrieval, input.embeddingModel) };
  const countAccess = input.countAccess ?? true;

  let retrieval: Retrieval = input.memoryEnabled
    ? await retrieve(db, input, now, config)
    : { status: "disabled", timings: noTimings() };

  let branches = selectBranches(retrieval, config);
  let accessCountedIds: string[] = [];
  if (retrieval.status === "ok" && countAccess) {
    // What the prompt carries is counted once, whichever branches chose it; a failure here sends no memory.
    const ids = branches.formatted.memories.filter((memory) => memory.included).map((memory) => memory.id);
    const start = performance.now();
    try {
      await recordAccess(db, { userId: input.userId, memoryIds: ids, now });
      accessCountedIds = ids;
      retrieval.timings.accessSqlMs = ids.length > 0 ? elapsedSince(start) : null;
    } catch (error) {
      retrieval = { status: "failed", error: describeError(error), failedStage: "access", timings: retrieval.timings };
      branches = selectBranches(retrieval, config);
    }
  }
  const { semantic, conversation, pinned, nearMisses, selected, merged, formatted } = branches;
  const memory: MemorySection =
    retrieval.status === "ok" ? { status: "ok", lines: formatted.lines } : { status: retrieval.status };
  const prompt = buildPrompt({
    mode: input.mode,
    userName: input.userName,
    memory,
    history: input.history,
    message: input.message,
    historyTokenBudget: config.prompt.historyTokenBudget,
  });

  const ok = retrieval.status === "ok" ? retrieval : null;
  const trace: ContextTrace = {
    status: retrieval.status,
    error: retrieval.status === "failed" ? retrieval.error : null,
    failedStage: retrieval.status === "failed" ? retrieval.failedStage : null,
    mode: input.mode,
    now: now.toISOString(),
    embeddingModel: input.embeddingModel,
    countAccess,
    config,
    semantic: ok && {
      aboveThreshold: ok.semantic.aboveThreshold,
      listed: ok.semantic.candidates.length,
      selected: selected.length,
      nearMisses: nearMisses.length,
      path: ok.semantic.path,
      certified: ok.semantic.certified,
    },
    waitingForReembedding: ok?.semantic.waitingForReembedding ?? 0,
    conversation:
      ok?.conversation && input.conversationId
        ? { conversationId: input.conversationId, returned: ok.conversation.length }
        : null,
    pinned: ok?.pinned ? { returned: ok.pinned.length, selected: pinned.filter((p) => p.selected).length } : null,
    accessCountedIds,
    candidates: traceCandidates(semantic, conversation, merged, formatted, pinned, nearMisses),
    memoryLines: memory.status === "ok" ? formatted.lines : [],
    tokens: prompt.tokens,
    history: prompt.history,
    timings: { ...retrieval.timings, totalMs: elapsedSince(started) },
  };
  return { messages: prompt.messages, trace };
}

/** assembleContext without access accounting: what the model would receive, with nothing written. */
export function previewContext(db: Db, input: Omit<AssembleInput, "countAccess">): Promise<AssembledContext> {
  return assembleContext(db, { ...input, countAccess: false });
}

/** What each branch selected, merged and formatted (nothing unless retrieval is ok). */
function selectBranches(retrieval: Retrieval, config: AssemblyConfig) {
  const ok = retrieval.status === "ok" ? retrieval : null;
  const semantic = ok?.semantic.candidates ?? [];
  const nearMisses = ok?.semantic.nearMisses ?? [];
  const conversation = ok?.conversation ?? [];
  const pinned = ok?.pinned ?? [];
  const selected = semantic.filter((candidate) => candidate.selected);
  const merged = mergeBranches(
    selected,
    conversation,
    pinned.filter((candidate) => candidate.selected),
  );
  const formatted = formatMemories(
    merged.map((memory) => ({ ...memory, pinned: memory.branches.includes("pinned") })),
    config.formatter,
  );
  return { semantic, conversation, pinned, nearMisses, selected, merged, formatted };
}

/**
 * The three branches, all read-only: conversation, then (after embedding) semantic, then pinned.
 * Access is counted afterwards, for what the prompt carries (assembleContext), so a failure never
 * leaves access counted for memories that were not sent.
 */
async function retrieve(db: Db, input: AssembleInput, now: Date, config: AssemblyConfig): Promise<Retrieval> {
  const timings = noTimings();
  let stage: FailedStage = "conversation";
  try {
    let conversation: ConversationCandidate[] | null = null;
    const { conversationId } = input;
    if (conversationId) {
      const start = performance.now();
      conversation = await retrieveConversationMemories(db, {
        userId: input.userId,
        conversationId,
        limit: config.retrieval.conversationLimit,
      });
      timings.conversationSqlMs = elapsedSince(start);
    }

    stage = "embed";
    let start = performance.now();
    const embedding = await input.embed(input.message);
    timings.embedMs = elapsedSince(start);

    stage = "semantic";
    start = performance.now();
    const semantic = await retrieveSemantic(db, {
      userId: input.userId,
      embedding,
      embeddingModel: input.embeddingModel,
      text: input.message,
      now,
      config: config.retrieval,
    });
    timings.semanticSqlMs = elapsedSince(start);

    stage = "pinned";
    let pinned: PinnedCandidate[] | null = null;
    const pinnedLimit = config.retrieval.pinnedLimit ?? 0;
    if (pinnedLimit > 0) {
      start = performance.now();
      pinned = await retrievePinnedMemories(db, {
        userId: input.userId,
        limit: pinnedLimit,
        listLimit: config.retrieval.traceCandidateLimit,
      });
      timings.pinnedSqlMs = elapsedSince(start);
    }
    return { status: "ok", semantic, conversation, pinned, timings };
  } catch (error) {
    return { status: "failed", error: describeError(error), failedStage: stage, timings };
  }
}

/** The message worth showing: drizzle wraps driver errors in one that repeats the SQL and every parameter. */
function describeError(error: unknown): string {
  const root = unwrapQueryError(error);
  return root instanceof Error ? root.message : String(root);
}

function elapsedSince(start: number): number {
  return Math.round((performance.now() - start) * 100) / 100;
}
