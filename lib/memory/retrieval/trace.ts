/**
 * The assembly trace: what the model received for one message, and why each candidate memory
 * was or was not in it. Plain JSON (no Dates, no undefined), stored in prompt_debug.trace and
 * rendered by the debug page and the preview API.
 */
import type { ChatMode, RetrievalStatus } from "@/db/schema";
import type { AssemblyConfig } from "./assembly-config";
import type { ConversationCandidate } from "./conversation-branch";
import type { FormattedContext } from "./format";
import type { Branch, MergedMemory } from "./merge";
import type { PinnedCandidate } from "./pinned-branch";
import type { HistoryEntry, PromptTokens } from "./prompt";
import type { ApproximateIndexUse, SemanticCandidate } from "./retrieve";
import type { ToolCallTrace } from "./tools";

/**
 * - included: its line is in the prompt.
 * - dropped_limit: above the threshold, but ranked below semanticLimit (pinned branch: past pinnedLimit).
 * - dropped_dedup: a later branch returned it, but an earlier one (pinned, then semantic) had already selected it.
 * - dropped_formatter_cap: selected by a branch, but past the formatter's maxMemories.
 * - below_threshold: a near-miss — among the most similar memories, but its similarity is below the
 *   threshold, so it was never ranked (its score is the one it would have had).
 */
export type CandidateFate =
  | "included"
  | "dropped_limit"
  | "dropped_dedup"
  | "dropped_formatter_cap"
  | "below_threshold";

/** One row a branch returned. A memory returned by both branches appears twice, once per branch. */
export interface TraceCandidate {
  memoryId: string;
  title: string | null;
  /** The stored content (the line sent may be shorter: see `truncated`). */
  content: string;
  branch: Branch;
  /** Position in that branch's order, from 1 (a near-miss: its position among the near-misses, by similarity). */
  rank: number;
  /** The semantic components; null when the semantic branch did not list this memory. */
  similarity: number | null;
  importance: number;
  recency: number | null;
  score: number | null;
  /**
   * Hybrid strategies only (absent otherwise): what the score weighs instead of the similarity —
   * the normalised reciprocal rank fusion of `vectorRank` (by similarity) and `textRank` (by the
   * BM25 `textScore`; both null when the memory matches no word of the message).
   */
  relevance?: number;
  vectorRank?: number;
  textRank?: number | null;
  textScore?: number | null;
  /**
   * Only when the message named a month or a day with its year and the strategy has a date window
   * (absent otherwise): 1 when the memory was created in that window, else 0; its score includes
   * dateWindow.weight·dateMatch.
   */
  dateMatch?: number;
  /** Every branch that selected this memory after merging; empty when none did. */
  selectedBy: Branch[];
  fate: CandidateFate;
  truncated: boolean;
  /** The exact line sent (bullet included) on the row whose fate is `included`; else null. */
  line: string | null;
  /**
   * Set on a stored trace when the memory was deleted afterwards: title, content and line no
   * longer hold its text ("[deleted memory]"; db/queries/redaction.ts).
   */
  redacted?: boolean;
}

export type FailedStage = "embed" | "semantic" | "conversation" | "pinned" | "access";

export interface ContextTrace {
  /** ok: retrieval ran (it may have found nothing); disabled: memory off, no query ran; failed: see `error`. */
  status: RetrievalStatus;
  error: string | null;
  failedStage: FailedStage | null;
  mode: ChatMode;
  /** ISO instant recency was measured from. */
  now: string;
  /** The embedder of the message ("offline/hash-ngram-v1"): only memories it embedded were compared. */
  embeddingModel: string;
  /** Whether the selected memories' access_count was incremented (false for previews). */
  countAccess: boolean;
  /**
   * The numbers this assembly ran with (the similarity threshold is the one for `embeddingModel`;
   * the history budget the one the prompt was built with).
   */
  config: AssemblyConfig & { readonly prompt: { readonly historyTokenBudget: number } };
  /**
   * null unless the semantic query ran. `listed` ≤ traceCandidateLimit ≤ … `aboveThreshold`;
   * `nearMisses`: the rows listed below the threshold (traces stored before near-misses lack it).
   */
  semantic: {
    aboveThreshold: number;
    listed: number;
    selected: number;
    nearMisses?: number;
    /**
     * The statement that answered (retrieve.ts): "exact", the one statement since migration 0006,
     * which scores every comparable memory; "approximate", the same formula over the HNSW index's
     * candidates and the text matches (above the crossover, Postgres only: `index`). Traces stored while a certified fast path existed may
     * say "fast" (its top certified equal to the exact statement's; its `aboveThreshold`, later
     * listed rows and near-misses counted among its candidates); absent on traces stored before.
     */
    path?: "exact" | "fast" | "approximate";
    /**
     * When the approximate path was tried (retrieve.ts `ApproximateIndexUse`): the user's comparable
     * memories and the crossover, the index scan's LIMIT and what it returned, the rows scored and
     * the index settings (hnsw.ef_search, hnsw.iterative_scan, hnsw.max_scan_tuples). `fellBack`: the
     * index returned too few and the exact statement answered. Absent when it was not tried.
     */
    index?: ApproximateIndexUse;
    /**
     * Stored traces of the certified fast path only: true on path "fast"; false: it could not
     * certify and the exact statement answered; null: not tried. New traces do not write it.
     */
    certified?: boolean | null;
    /**
     * The date the message named, as the window whose memories scored dateWindow.weight more
     * ([start, end), ISO; end includes the days after): null when it named none or the strategy has
     * no window; absent on traces stored before the date window existed.
     */
    dateWindow?: { start: string; end: string } | null;
  } | null;
  /**
   * The user's active memories the semantic query could not compare because another embedder (or
   * none) made their vectors: they wait to be re-embedded with `embeddingModel`
   * (`npm run memories:reembed`, or the job a server start runs). With status `ok` and no
   * candidates, > 0 means "nothing could be compared", not "nothing matched". 0 when the semantic
   * query did not run. (Traces stored before this field existed lack it.)
   */
  waitingForReembedding: number;
  /** null unless the conversation branch ran (it needs a conversation id). */
  conversation: { conversationId: string; returned: number } | null;
  /**
   * The pinned branch: pinned memories returned and selected (≤ pinnedLimit). null when it did not
   * run; absent on traces stored before it existed.
   */
  pinned?: { returned: number; selected: number } | null;
  /**
   * The memories whose access_count this prompt incremented (each once, whichever branches chose
   * it): those with a line in the prompt. Empty for previews. Absent on traces stored before.
   */
  accessCountedIds?: string[];
  /**
   * Pinned rows by rank, semantic rows by rank, conversation rows by rank, then the semantic
   * query's near-misses (fate below_threshold) by similarity.
   */
  candidates: TraceCandidate[];
  /** The memory lines sent, in prompt order. */
  memoryLines: string[];
  tokens: PromptTokens;
  history: HistoryEntry[];
  timings: {
    embedMs: number | null;
    semanticSqlMs: number | null;
    conversationSqlMs: number | null;
    /** Absent on traces stored before the pinned branch and the per-prompt access count existed. */
    pinnedSqlMs?: number | null;
    accessSqlMs?: number | null;
    totalMs: number;
  };
  /**
   * The memory tools the model called while answering (lib/memory/retrieval/tools.ts), in call
   * order: input, rule, every memory considered with its fate. Absent when no tools were offered
   * (memory off, previews, traces stored before the tools existed); empty when none was called.
   */
  toolCalls?: ToolCallTrace[];
  /**
   * Stored traces only: the memories deleted after this answer, whose text was redacted from the
   * record (here and in the captured model input, which did contain it). Absent when none.
   */
  redactedMemoryIds?: string[];
}

/** The fate of every row the branches returned, from the merge and the formatter's results. */
export function traceCandidates(
  semantic: readonly SemanticCandidate[],
  conversation: readonly ConversationCandidate[],
  merged: readonly MergedMemory[],
  formatted: FormattedContext,
  pinned: readonly PinnedCandidate[] = [],
  nearMisses: readonly SemanticCandidate[] = [],
): TraceCandidate[] {
  const selectedBy = new Map(merged.map((memory) => [memory.id, memory.branches]));
  const formatOf = new Map(formatted.memories.map((memory) => [memory.id, memory]));
  const semanticOf = new Map(semantic.map((candidate) => [candidate.id, candidate]));

  const formatterFate = (id: string) => {
    const format = formatOf.get(id);
    if (!format?.included) return { fate: "dropped_formatter_cap" as const, truncated: false, line: null };
    return { fate: "included" as const, truncated: format.truncated, line: format.line };
  };
  type Outcome = Pick<TraceCandidate, "fate" | "truncated" | "line">;
  const notSent = (fate: CandidateFate): Outcome => ({ fate, truncated: false, line: null });
  /** A row its branch selected: sent (or capped) by the first branch that selected it, a duplicate for the others. */
  const selectedFate = (id: string, branch: Branch) => {
    const first = selectedBy.get(id)?.[0];
    return first === undefined || first === branch ? formatterFate(id) : notSent("dropped_dedup");
  };
  /** The fusion components, only when the strategy produced them (the trace stays free of undefined). */
  const fusion = (candidate: SemanticCandidate | undefined) =>
    candidate?.relevance === undefined
      ? {}
      : {
          relevance: candidate.relevance,
          vectorRank: candidate.vectorRank ?? 0,
          textRank: candidate.textRank ?? null,
          textScore: candidate.textScore ?? null,
        };
  /** The date-window component, only when the message named a date (the trace stays free of undefined). */
  const dated = (candidate: SemanticCandidate | undefined) =>
    candidate?.dateMatch === undefined ? {} : { dateMatch: candidate.dateMatch };
  const semanticRow = (candidate: SemanticCandidate, fate: Outcome): TraceCandidate => ({
    memoryId: candidate.id,
    title: candidate.title,
    content: candidate.content,
    branch: "semantic",
    rank: candidate.rank,
    similarity: candidate.similarity,
    importance: candidate.importance,
    recency: candidate.recency,
    score: candidate.score,
    ...fusion(candidate),
    ...dated(candidate),
    selectedBy: selectedBy.get(candidate.id) ?? [],
    ...fate,
  });
  /** A row of a branch that does not score (pinned, conversation): the semantic components when it listed the memory. */
  const unscoredRow = (
    candidate: PinnedCandidate | ConversationCandidate,
    branch: Branch,
    fate: Outcome,
  ): TraceCandidate => {
    const components = semanticOf.get(candidate.id);
    return {
      memoryId: candidate.id,
      title: candidate.title,
      content: candidate.content,
      branch,
      rank: candidate.rank,
      similarity: components?.similarity ?? null,
      importance: candidate.importance,
      recency: components?.recency ?? null,
      score: components?.score ?? null,
      ...fusion(components),
      ...dated(components),
      selectedBy: selectedBy.get(candidate.id) ?? [],
      ...fate,
    };
  };

  return [
    ...pinned.map((candidate) =>
      unscoredRow(
        candidate,
        "pinned",
        candidate.selected ? selectedFate(candidate.id, "pinned") : notSent("dropped_limit"),
      ),
    ),
    ...semantic.map((candidate) =>
      semanticRow(candidate, candidate.selected ? selectedFate(candidate.id, "semantic") : notSent("dropped_limit")),
    ),
    ...conversation.map((candidate) =>
      unscoredRow(candidate, "conversation", selectedFate(candidate.id, "conversation")),
    ),
    ...nearMisses.map((candidate) => semanticRow(candidate, notSent("below_threshold"))),
  ];
}
