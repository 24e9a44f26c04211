import { BranchBadge } from "@/components/chat/branch-badge";
import { Badge } from "@/components/ui/badge";
import { dateWindowSummary, pathSummary, scoreFormula, strategySummary } from "@/lib/memory/retrieval/explain";
import type { ContextTrace } from "@/lib/memory/retrieval/trace";
import { formatScore } from "@/lib/ui/format";
import { FateBadge } from "./fate-badge";
import { type MemoryColumn, MemoryRows } from "./memory-rows";
import { ScoreBar, ScoreLegend } from "./score-bar";

type Candidate = ContextTrace["candidates"][number];

/**
 * The candidate table's columns after the memory. The fate and the score come first: what happened
 * to a memory, and why, are readable without scrolling the numbers sideways on a laptop screen.
 */
function candidateColumns(trace: ContextTrace): MemoryColumn<Candidate>[] {
  const { retrieval, formatter } = trace.config;
  const fused = retrieval.fusion != null;
  const dated = trace.candidates.some((c) => c.dateMatch !== undefined);
  return [
    {
      key: "fate",
      label: "Fate",
      cell: (c) => (
        <span className="inline-flex flex-wrap justify-end gap-1 sm:flex-col sm:items-start">
          <FateBadge fate={c.fate} />
          {c.truncated && (
            <Badge variant="warning" title={`The line sent was cut to ${formatter.maxLineChars} characters`}>
              truncated
            </Badge>
          )}
        </span>
      ),
    },
    {
      key: "score",
      label: "Score",
      wide: true,
      cell: (c) =>
        c.similarity !== null && c.recency !== null && c.score !== null ? (
          <ScoreBar
            similarity={c.relevance ?? c.similarity}
            importance={c.importance}
            recency={c.recency}
            score={c.score}
            weights={retrieval.weights}
            date={
              c.dateMatch !== undefined && retrieval.dateWindow
                ? { weight: retrieval.dateWindow.weight, match: c.dateMatch }
                : undefined
            }
          />
        ) : (
          <span className="text-xs">not scored</span>
        ),
    },
    { key: "branch", label: "Branch", cell: (c) => <BranchBadge branch={c.branch} /> },
    {
      key: "rank",
      label: "Rank",
      numeric: true,
      cell: (c) => (c.fate === "below_threshold" ? `(${c.rank})` : c.rank),
      cellHint: (c) => (c.fate === "below_threshold" ? "Position among the near-misses, by similarity" : undefined),
    },
    { key: "similarity", label: "Similarity", numeric: true, cell: (c) => formatScore(c.similarity, 3) },
    ...(fused
      ? ([
          {
            key: "relevance",
            label: "Relevance",
            hint: "Normalised reciprocal rank fusion of the two ranks",
            numeric: true,
            cell: (c) => formatScore(c.relevance, 3),
          },
          {
            key: "vector-rank",
            label: "Vector rank",
            hint: "Rank by similarity among all comparable memories",
            numeric: true,
            cell: (c) => c.vectorRank ?? "—",
          },
          {
            key: "text-rank",
            label: "Text rank",
            hint: "Rank by BM25 among memories sharing a word with the message",
            numeric: true,
            cell: (c) => c.textRank ?? "—",
            cellHint: (c) =>
              c.textScore === null || c.textScore === undefined
                ? "No word in common with the message"
                : `BM25 ${c.textScore.toFixed(3)}`,
          },
        ] satisfies MemoryColumn<Candidate>[])
      : []),
    { key: "importance", label: "Importance", numeric: true, cell: (c) => formatScore(c.importance) },
    { key: "recency", label: "Recency", numeric: true, cell: (c) => formatScore(c.recency) },
    ...(dated
      ? ([
          {
            key: "date",
            label: "Date",
            hint: "Created in the date the message names (or the days after)",
            numeric: true,
            cell: (c) => (c.dateMatch === undefined ? "—" : c.dateMatch),
          },
        ] satisfies MemoryColumn<Candidate>[])
      : []),
  ];
}

/** "3 memories are waiting to be re-embedded with <embedder>; they cannot be compared until then." */
export function waitingForReembeddingNotice(count: number, embedder: string): string {
  return count === 1
    ? `1 memory is waiting to be re-embedded with ${embedder}; it cannot be compared until then.`
    : `${count} memories are waiting to be re-embedded with ${embedder}; they cannot be compared until then.`;
}

/** Every row the retrieval branches returned, the near-misses too, with every number of its score and its fate. */
export function CandidateTable({ trace }: { trace: ContextTrace }) {
  const { retrieval, formatter } = trace.config;
  // Traces stored before the count existed lack it.
  const waiting = trace.waitingForReembedding ?? 0;
  // Traces stored before the pinned branch lack it and its limit.
  const pinnedLimit = retrieval.pinnedLimit ?? 0;
  const fused = retrieval.fusion != null;
  /** The message named a date and the strategy has a date window: the candidates carry dateMatch. */
  const dated = trace.candidates.some((c) => c.dateMatch !== undefined);
  const path = pathSummary(trace.semantic, retrieval.semanticLimit);
  const dateLine = retrieval.dateWindow
    ? dateWindowSummary(trace.semantic?.dateWindow, retrieval.dateWindow.weight)
    : null;
  const nearMisses = trace.semantic?.nearMisses ?? 0;
  return (
    <div className="space-y-3">
      <p className="text-sm text-muted-foreground">
        {pinnedLimit > 0 && (
          <>
            Pinned branch: up to {pinnedLimit} pinned memories, always, no similarity test
            {trace.pinned
              ? ` — ${trace.pinned.returned} pinned, ${trace.pinned.selected} selected.`
              : " — did not run."}{" "}
          </>
        )}
        Semantic branch: similarity ≥ {retrieval.similarityThreshold}, best {retrieval.semanticLimit} by score
        {trace.semantic
          ? ` — ${trace.semantic.aboveThreshold} above the threshold, ${trace.semantic.selected} selected${
              nearMisses > 0 ? `; the ${nearMisses} most similar below it are listed as near-misses` : ""
            }.`
          : " — did not run."}{" "}
        Conversation branch: up to {retrieval.conversationLimit} memories saved from this chat, no similarity test
        {trace.conversation ? ` — ${trace.conversation.returned} returned.` : " — did not run (a new chat)."} Then at
        most {formatter.maxMemories} lines of ≤ {formatter.maxLineChars} characters.
      </p>
      {waiting > 0 && (
        <p
          role="status"
          data-testid="waiting-for-reembedding"
          className="rounded-lg border border-amber-600/25 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950/60 dark:text-amber-200"
        >
          {waitingForReembeddingNotice(waiting, trace.embeddingModel)}
        </p>
      )}
      <p className="text-sm" data-testid="retrieval-strategy">
        Strategy in force: <span className="font-mono text-xs">{strategySummary(retrieval)}</span>
      </p>
      {path && (
        <p className="text-sm text-muted-foreground" data-testid="retrieval-path">
          Semantic statement: {path}.
        </p>
      )}
      {dateLine && (
        <p className="text-sm text-muted-foreground" data-testid="retrieval-date-window">
          {dateLine}
        </p>
      )}
      <ScoreLegend
        weights={retrieval.weights}
        fused={fused}
        dateWeight={dated ? retrieval.dateWindow?.weight : undefined}
      />
      <p className="font-mono text-xs text-muted-foreground" data-testid="score-formula">
        {scoreFormula(retrieval)}
      </p>
      {trace.candidates.length === 0 ? (
        <p className="rounded-lg border border-dashed px-4 py-6 text-center text-sm text-muted-foreground">
          {trace.status === "ok"
            ? waiting > 0
              ? "Retrieval ran, and none of the memories it could compare qualified — the ones waiting to be re-embedded were not compared."
              : "Retrieval ran and no memory qualified for this message."
            : trace.status === "disabled"
              ? "Memory was off for this chat: no retrieval ran."
              : "Retrieval failed, so there are no candidates — this is not the same as “nothing matched”."}
        </p>
      ) : (
        <MemoryRows
          rows={trace.candidates}
          columns={candidateColumns(trace)}
          rowKey={(c) => `${c.branch}:${c.memoryId}`}
          highlighted={(c) => c.fate === "included"}
          details={(c) => c.line && <p className="mt-1 font-mono text-[11px] text-muted-foreground">sent: {c.line}</p>}
          minWidth={fused ? "sm:min-w-[64rem]" : "sm:min-w-[52rem]"}
          tone="card"
          testId="candidate-table"
        />
      )}
    </div>
  );
}
