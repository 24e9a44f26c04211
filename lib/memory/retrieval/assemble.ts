import type { ModelMessage } from "ai";
import { type ApproximateRetrievalConfig, promptConfig } from "@/core/config";
import { inSpan } from "@/core/telemetry";
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
import { retrieveSemantic, type SemanticResult, startComparableCount } from "./retrieve";
import { elapsedSince } from "./tools";
import { type ContextTrace, type FailedStage, traceCandidates } from "./trace";

export interface AssembleInput {
  userId: string;
  userName?: string | null;
  conversationId?: string | null;
  message: string;
  /**
   * Oldest first, without the new message. The chat turn passes it while its messages are still being written:
   * retrieval runs meanwhile, and nothing is counted as accessed until it resolves (a turn whose writes failed
   * rejects it, and counts nothing).
   */
  history: readonly HistoryMessage[] | Promise<readonly HistoryMessage[]>;
  mode: ChatMode;
  memoryEnabled: boolean;
  embed: (text: string) => Promise<number[]>;
  /** Only memories it embedded are compared, with its threshold. */
  embeddingModel: string;
  now?: Date;
  /** false (previews): nothing is written. */
  countAccess?: boolean;
  config?: AssemblyConfig;
  /** Unless `config` fixes one; previews have no model, so the default applies. */
  historyTokenBudget?: number;
  /** null: always exact. */
  approximate?: ApproximateRetrievalConfig | null;
}

export interface AssembledContext {
  messages: ModelMessage[];
  trace: ContextTrace;
  /** Two memories may render to the same line, so a line's text does not name its memory. */
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

/** Never throws for a retrieval problem: status `failed` and a prompt without memories, and the chat goes on. */
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
  // Time spent waiting for the caller's history (the turn's writes) is not assembly's: the total leaves it out.
  const waitStarted = performance.now();
  const history = await input.history;
  const waitedMs = performance.now() - waitStarted;

  let branches = selectBranches(retrieval, config);
  let accessCountedIds: string[] = [];
  if (retrieval.status === "ok" && countAccess) {
    // What the prompt carries is counted once, whichever branches chose it; a failure here sends no memory.
    const ids = branches.formatted.memories.filter((memory) => memory.included).map((memory) => memory.id);
    const start = performance.now();
    try {
      // A span of its own: the bench sets a chat turn's time against its statement plus its writes.
      await inSpan("retrieval.access_write", { "lifeline.memories": ids.length }, () =>
        recordAccess(db, { userId: input.userId, memoryIds: ids, now }),
      );
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
    history,
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
    timings: { ...retrieval.timings, totalMs: elapsedSince(started + waitedMs) },
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
 * Access is counted afterwards, so a failure never leaves access counted for memories not sent. The
 * others are still awaited after a failure, so nothing runs on after the turn has moved on.
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
  const approximate = input.approximate === undefined ? {} : { approximate: input.approximate };
  const comparable = startComparableCount(db, {
    userId: input.userId,
    embeddingModel: input.embeddingModel,
    ...approximate,
  });
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
    embedded.then((vector) =>
      timed("semanticSqlMs", () =>
        retrieveSemantic(db, {
          userId: input.userId,
          embedding: vector,
          embeddingModel: input.embeddingModel,
          text: input.message,
          now,
          config: config.retrieval,
          ...approximate,
          ...(comparable ? { comparable } : {}),
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
