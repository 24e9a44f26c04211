/** Plain JSON (no Dates, no undefined): stored in prompt_debug.trace, so old traces lack newer fields. */
import type { ChatMode, RetrievalStatus } from "@/db/schema";
import type { AssemblyConfig } from "./assembly-config";
import type { ConversationCandidate } from "./conversation-branch";
import type { TracedCandidatePass } from "./explain";
import type { FormattedContext } from "./format";
import type { Branch, MergedMemory } from "./merge";
import type { PinnedCandidate } from "./pinned-branch";
import type { HistoryEntry, PromptTokens } from "./prompt";
import type { SemanticCandidate } from "./retrieve";
import type { ToolCallTrace } from "./tools";

/** dropped_dedup: an earlier branch (pinned, then semantic) already selected it. */
export type CandidateFate =
  | "included"
  | "dropped_limit"
  | "dropped_dedup"
  | "dropped_formatter_cap"
  | "below_threshold";

/** A memory returned by both branches appears twice, once per branch. */
export interface TraceCandidate {
  memoryId: string;
  title: string | null;
  content: string;
  branch: Branch;
  /** From 1; a near-miss's is its position among the near-misses. */
  rank: number;
  /** null when the semantic branch did not list this memory. */
  similarity: number | null;
  importance: number;
  recency: number | null;
  score: number | null;
  /** Hybrid strategies only; textRank/textScore are null when the memory matches no word of the message. */
  relevance?: number;
  vectorRank?: number;
  textRank?: number | null;
  textScore?: number | null;
  /** Only when the message named a date and the strategy has a date window. */
  dateMatch?: number;
  selectedBy: Branch[];
  fate: CandidateFate;
  truncated: boolean;
  /** The exact line sent, bullet included. */
  line: string | null;
  /** The memory was deleted afterwards and its text redacted (db/queries/redaction.ts). */
  redacted?: boolean;
}

export type FailedStage = "embed" | "semantic" | "conversation" | "pinned" | "access";

export interface ContextTrace {
  status: RetrievalStatus;
  error: string | null;
  failedStage: FailedStage | null;
  mode: ChatMode;
  now: string;
  embeddingModel: string;
  /** false for previews. */
  countAccess: boolean;
  /** The similarity threshold is the one resolved for `embeddingModel`. */
  config: AssemblyConfig & { readonly prompt: { readonly historyTokenBudget: number } };
  semantic: {
    aboveThreshold: number;
    listed: number;
    selected: number;
    nearMisses?: number;
    /** "fast" and `certified` appear only on stored traces of a retired fast path; new traces never write them. */
    path?: "exact" | "fast" | "approximate" | "two-stage";
    index?: TracedCandidatePass;
    certified?: boolean | null;
    dateWindow?: { start: string; end: string } | null;
  } | null;
  /** With status `ok` and no candidates, > 0 means "nothing could be compared", not "nothing matched". */
  waitingForReembedding: number;
  conversation: { conversationId: string; returned: number } | null;
  pinned?: { returned: number; selected: number } | null;
  accessCountedIds?: string[];
  /** Pinned, semantic, conversation rows by rank, then the near-misses by similarity. */
  candidates: TraceCandidate[];
  memoryLines: string[];
  tokens: PromptTokens;
  history: HistoryEntry[];
  timings: {
    embedMs: number | null;
    semanticSqlMs: number | null;
    conversationSqlMs: number | null;
    pinnedSqlMs?: number | null;
    accessSqlMs?: number | null;
    totalMs: number;
  };
  /** Absent when no tools were offered; empty when none was called. */
  toolCalls?: ToolCallTrace[];
  /** Redacted here and in the captured model input, which did contain their text. */
  redactedMemoryIds?: string[];
}

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
  const selectedFate = (id: string, branch: Branch) => {
    const first = selectedBy.get(id)?.[0];
    return first === undefined || first === branch ? formatterFate(id) : notSent("dropped_dedup");
  };
  // Spread empty rather than undefined: the trace is stored as JSON.
  const fusion = (candidate: SemanticCandidate | undefined) =>
    candidate?.relevance === undefined
      ? {}
      : {
          relevance: candidate.relevance,
          vectorRank: candidate.vectorRank ?? 0,
          textRank: candidate.textRank ?? null,
          textScore: candidate.textScore ?? null,
        };
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
