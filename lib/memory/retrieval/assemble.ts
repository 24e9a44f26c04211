/**
 * assembleContext(): the whole pipeline for one chat turn — conversation branch, embedding,
 * semantic branch, pinned branch, merge, formatter, access accounting, prompt builder — and the
 * trace of every step.
 * Text model and Gmail agent alike consume its `messages`.
 */
import type { ModelMessage } from "ai";
import { type ApproximateRetrievalConfig, promptConfig } from "@/core/config";
import type { Db } from "@/db/client";
import { queryErrorMessage } from "@/db/queries/errors";
import type { ChatMode } from "@/db/schema";
import { recordAccess } from "./access";
import { type AssemblyConfig, DEFAULT_ASSEMBLY_CONFIG, forEmbedder } from "./assembly-config";
import { type ConversationCandidate, retrieveConversationMemories } from "./conversation-branch";
import { formatMemories } from "./format";
import { mergeBranches } from "./merge";
import { type PinnedCandidate, retrievePinnedMemories } from "./pinned-branch";
import { buildPrompt, type HistoryMessage, type MemorySection } from "./prompt";
import { retrieveSemantic, type SemanticResult } from "./retrieve";
import { elapsedSince } from "./tools";
import { type ContextTrace, type FailedStage, traceCandidates } from "./trace";

export interface AssembleInput {
  userId: string;
  userName?: string | null;
  /** The current conversation; without it the conversation branch does not run. */
  conversationId?: string | null;
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
  /**
   * The history budget of the model that answers (core/model-capabilities.ts `historyTokenBudget`),
   * unless `config` fixes one; default promptConfig.historyTokenBudget (previews: no model).
   */
  historyTokenBudget?: number;
  /** The semantic branch's approximate path (retrieve.ts): default core/config's; null: always exact. */
  approximate?: ApproximateRetrievalConfig | null;
}

export interface AssembledContext {
  /** The system message, the history that fit the budget, the new user message. */
  messages: ModelMessage[];
  trace: ContextTrace;
  /**
   * The memory lines of the system message (`trace.memoryLines`), each with the memory it renders:
   * two memories may render to the same line, so a line's text does not name its memory.
   */
  memoryLines: { memoryId: string; line: string }[];
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
  const config: ContextTrace["config"] = {
    ...given,
    retrieval: forEmbedder(given.retrieval, input.embeddingModel),
    prompt: {
      historyTokenBudget:
        given.prompt.historyTokenBudget ?? input.historyTokenBudget ?? promptConfig.historyTokenBudget,
    },
  };
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
      retrieval = {
        status: "failed",
        error: queryErrorMessage(error),
        failedStage: "access",
        timings: retrieval.timings,
      };
      branches = selectBranches(retrieval, config);
    }
  }
  const { semantic, conversation, pinned, nearMisses, selected, merged, formatted } = branches;
  const unmatchedIds = new Set(merged.filter((m) => !m.branches.includes("semantic")).map((m) => m.id));
  const memory: MemorySection =
    retrieval.status === "ok"
      ? {
          status: "ok",
          lines: formatted.lines,
          unmatchedLines: formatted.memories.flatMap((m) =>
            m.line !== null && unmatchedIds.has(m.id) ? [m.line] : [],
          ),
          waitingForReembedding: retrieval.semantic.waitingForReembedding,
        }
      : { status: retrieval.status };
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
      ...(ok.semantic.index ? { index: ok.semantic.index } : {}),
      dateWindow: ok.semantic.dateWindow,
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
  const memoryLines =
    memory.status === "ok"
      ? formatted.memories.flatMap((m) => (m.line === null ? [] : [{ memoryId: m.id, line: m.line }]))
      : [];
  return { messages: prompt.messages, trace, memoryLines };
}

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
 * The three branches, all read-only and independent, run concurrently: conversation, semantic
 * (after embedding the message) and pinned. Access is counted afterwards, for what the prompt
 * carries (assembleContext), so a failure never leaves access counted for memories that were not
 * sent. A failure names its stage: the first to fail in the order conversation, embed, semantic,
 * pinned (the others are still awaited, so nothing runs on after the turn has moved on).
 */
async function retrieve(db: Db, input: AssembleInput, now: Date, config: AssemblyConfig): Promise<Retrieval> {
  const timings = noTimings();
  const timed = async <T>(key: keyof Timings, run: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    const value = await run();
    timings[key] = elapsedSince(start);
    return value;
  };
  const { conversationId } = input;
  const pinnedLimit = config.retrieval.pinnedLimit ?? 0;
  const embedded = timed("embedMs", () => input.embed(input.message));
  const [conversation, embedding, semantic, pinned] = await Promise.allSettled([
    conversationId
      ? timed("conversationSqlMs", () =>
          retrieveConversationMemories(db, {
            userId: input.userId,
            conversationId,
            limit: config.retrieval.conversationLimit,
          }),
        )
      : Promise.resolve(null),
    embedded,
    // The semantic statement starts as soon as the embedding is there.
    embedded.then((vector) =>
      timed("semanticSqlMs", () =>
        retrieveSemantic(db, {
          userId: input.userId,
          embedding: vector,
          embeddingModel: input.embeddingModel,
          text: input.message,
          now,
          config: config.retrieval,
          ...(input.approximate === undefined ? {} : { approximate: input.approximate }),
        }),
      ),
    ),
    pinnedLimit > 0
      ? timed("pinnedSqlMs", () =>
          retrievePinnedMemories(db, {
            userId: input.userId,
            limit: pinnedLimit,
            listLimit: config.retrieval.traceCandidateLimit,
          }),
        )
      : Promise.resolve(null),
  ]);
  const failed = (
    [
      ["conversation", conversation],
      ["embed", embedding],
      ["semantic", semantic],
      ["pinned", pinned],
    ] as const
  ).find(([, result]) => result?.status === "rejected");
  if (failed) {
    const [failedStage, result] = failed;
    return {
      status: "failed",
      error: queryErrorMessage((result as PromiseRejectedResult).reason),
      failedStage,
      timings,
    };
  }
  const value = <T>(result: PromiseSettledResult<T>) => (result as PromiseFulfilledResult<T>).value;
  return {
    status: "ok",
    semantic: value(semantic),
    conversation: value(conversation),
    pinned: value(pinned),
    timings,
  };
}
