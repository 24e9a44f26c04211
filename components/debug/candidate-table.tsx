import Link from "next/link";
import { BranchBadge } from "@/components/chat/branch-badge";
import { Badge } from "@/components/ui/badge";
import { dateWindowSummary, pathSummary, scoreFormula, strategySummary } from "@/lib/memory/retrieval/explain";
import type { ContextTrace } from "@/lib/memory/retrieval/trace";
import { formatScore } from "@/lib/ui/format";
import { FateBadge } from "./fate-badge";
import { ScoreBar, ScoreLegend } from "./score-bar";

const th = "px-2 py-2 text-left text-xs font-medium whitespace-nowrap text-muted-foreground";
const td = "px-2 py-2 align-top";

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
        // The fate and the score come right after the memory: what happened to it, and why, are
        // readable without scrolling the numbers sideways on a laptop screen.
        <div className="-mx-4 overflow-x-auto sm:mx-0">
          <table
            className={`w-full border-collapse text-sm ${fused ? "min-w-[64rem]" : "min-w-[52rem]"}`}
            data-testid="candidate-table"
          >
            <thead className="border-b">
              <tr>
                <th className={th}>Memory</th>
                <th className={th}>Fate</th>
                <th className={th}>Score</th>
                <th className={th}>Branch</th>
                <th className={`${th} text-right`}>Rank</th>
                <th className={`${th} text-right`}>Similarity</th>
                {fused && (
                  <>
                    <th className={`${th} text-right`} title="Normalised reciprocal rank fusion of the two ranks">
                      Relevance
                    </th>
                    <th className={`${th} text-right`} title="Rank by similarity among all comparable memories">
                      Vector rank
                    </th>
                    <th
                      className={`${th} text-right`}
                      title="Rank by BM25 among memories sharing a word with the message"
                    >
                      Text rank
                    </th>
                  </>
                )}
                <th className={`${th} text-right`}>Importance</th>
                <th className={`${th} text-right`}>Recency</th>
                {dated && (
                  <th className={`${th} text-right`} title="Created in the date the message names (or the days after)">
                    Date
                  </th>
                )}
              </tr>
            </thead>
            <tbody className="divide-y">
              {trace.candidates.map((c) => (
                <tr
                  key={`${c.branch}:${c.memoryId}`}
                  data-fate={c.fate}
                  className={c.fate === "included" ? "" : "text-muted-foreground"}
                >
                  <td className={`${td} max-w-72`}>
                    {c.redacted ? (
                      <>
                        <Badge variant="outline">deleted memory</Badge>
                        <p className="mt-1 text-xs text-muted-foreground">
                          Deleted since this answer; its text is no longer kept here.
                        </p>
                      </>
                    ) : (
                      <>
                        <Link
                          href={`/memories?id=${c.memoryId}`}
                          className="font-medium text-foreground hover:underline"
                        >
                          {c.title ?? "Untitled"}
                        </Link>
                        <p className="line-clamp-2 text-xs text-muted-foreground">{c.content}</p>
                        {c.line && <p className="mt-1 font-mono text-[11px] text-muted-foreground">sent: {c.line}</p>}
                      </>
                    )}
                  </td>
                  <td className={`${td} space-y-1`}>
                    <FateBadge fate={c.fate} />
                    {c.truncated && (
                      <Badge variant="warning" title={`The line sent was cut to ${formatter.maxLineChars} characters`}>
                        truncated
                      </Badge>
                    )}
                  </td>
                  <td className={td}>
                    {c.similarity !== null && c.recency !== null && c.score !== null ? (
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
                    )}
                  </td>
                  <td className={td}>
                    <BranchBadge branch={c.branch} />
                  </td>
                  <td
                    className={`${td} text-right font-mono tabular-nums`}
                    title={c.fate === "below_threshold" ? "Position among the near-misses, by similarity" : undefined}
                  >
                    {c.fate === "below_threshold" ? `(${c.rank})` : c.rank}
                  </td>
                  <td className={`${td} text-right font-mono tabular-nums`} data-column="similarity">
                    {formatScore(c.similarity, 3)}
                  </td>
                  {fused && (
                    <>
                      <td className={`${td} text-right font-mono tabular-nums`}>{formatScore(c.relevance, 3)}</td>
                      <td className={`${td} text-right font-mono tabular-nums`}>{c.vectorRank ?? "—"}</td>
                      <td
                        className={`${td} text-right font-mono tabular-nums`}
                        title={
                          c.textScore === null || c.textScore === undefined
                            ? "No word in common with the message"
                            : `BM25 ${c.textScore.toFixed(3)}`
                        }
                      >
                        {c.textRank ?? "—"}
                      </td>
                    </>
                  )}
                  <td className={`${td} text-right font-mono tabular-nums`}>{formatScore(c.importance)}</td>
                  <td className={`${td} text-right font-mono tabular-nums`}>{formatScore(c.recency)}</td>
                  {dated && (
                    <td className={`${td} text-right font-mono tabular-nums`}>
                      {c.dateMatch === undefined ? "—" : c.dateMatch}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
