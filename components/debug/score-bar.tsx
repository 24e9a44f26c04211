import type { AssemblyConfig } from "@/lib/memory/retrieval/assembly-config";

const SCORE_PARTS = [
  { key: "similarity", label: "similarity", className: "bg-semantic" },
  { key: "importance", label: "importance", className: "bg-amber-500" },
  { key: "recency", label: "recency", className: "bg-sky-500" },
] as const;

/** The date-window term's colour, in the bar and its legend. */
const DATE_SEGMENT = "bg-violet-500";

/**
 * score = similarity·w + importance·w + recency·w, drawn as three stacked segments on a 0–1 scale
 * (pure CSS). The accessible name spells the arithmetic out. With the hybrid strategy the first
 * component is the fused relevance (vector + full-text ranks), not the raw cosine similarity.
 * `date`: the date-window term, when the message named a date (a fourth, violet segment).
 */
export function ScoreBar({
  similarity,
  importance,
  recency,
  score,
  weights,
  date,
}: {
  similarity: number;
  importance: number;
  recency: number;
  score: number;
  weights: AssemblyConfig["retrieval"]["weights"];
  date?: { weight: number; match: number };
}) {
  const values = { similarity, importance, recency };
  const arithmetic = [
    ...SCORE_PARTS.map(({ key }) => `${weights[key]}×${values[key].toFixed(2)}`),
    ...(date ? [`${date.weight}×${date.match} (date)`] : []),
  ].join(" + ");
  return (
    <div className="flex items-center gap-2" role="img" aria-label={`${arithmetic} = ${score.toFixed(3)}`}>
      <div
        className="flex h-2.5 w-28 overflow-hidden rounded-full bg-muted"
        title={`${arithmetic} = ${score.toFixed(3)}`}
      >
        {SCORE_PARTS.map(({ key, className }) => (
          <div key={key} className={className} style={{ width: `${Math.max(0, weights[key] * values[key]) * 100}%` }} />
        ))}
        {date && <div className={DATE_SEGMENT} style={{ width: `${Math.max(0, date.weight * date.match) * 100}%` }} />}
      </div>
      <span className="font-mono text-xs tabular-nums">{score.toFixed(3)}</span>
    </div>
  );
}

export function ScoreLegend({
  weights,
  fused,
  dateWeight,
}: {
  weights: AssemblyConfig["retrieval"]["weights"];
  /** The first component is the fused relevance of the hybrid strategy. */
  fused: boolean;
  /** The date-window term's weight, when the bars include it (the message named a date). */
  dateWeight?: number;
}) {
  return (
    <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground" aria-label="Score components">
      {SCORE_PARTS.map(({ key, label, className }) => (
        <li key={key} className="inline-flex items-center gap-1.5">
          <span className={`size-2.5 rounded-sm ${className}`} aria-hidden="true" />
          {key === "similarity" && fused ? "relevance (vector + text ranks)" : label} × {weights[key]}
        </li>
      ))}
      {dateWeight !== undefined && (
        <li className="inline-flex items-center gap-1.5">
          <span className={`size-2.5 rounded-sm ${DATE_SEGMENT}`} aria-hidden="true" />
          created in the named date × {dateWeight}
        </li>
      )}
    </ul>
  );
}
