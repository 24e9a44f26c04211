import { DAY_MS } from "@/core/calendar";
import type { AssemblyConfig } from "./assembly-config";
import type { CandidatePassUse } from "./retrieve";

type Retrieval = AssemblyConfig["retrieval"];

export function scoreFormula(retrieval: Retrieval): string {
  const { weights, fusion, similarityThreshold, recencyWindowDays } = retrieval;
  const first = fusion ? "relevance" : "similarity";
  const score = `score = ${weights.similarity}·${first} + ${weights.importance}·importance + ${weights.recency}·recency`;
  const recency = `recency = 1 − days since last update / ${recencyWindowDays} (at least 0)`;
  const threshold =
    similarityThreshold <= -1
      ? "every memory is ranked (no similarity threshold)"
      : `only similarity ≥ ${similarityThreshold} is ranked${fusion?.textBypassesThreshold ? " (or a word match)" : ""}`;
  const dated = retrieval.dateWindow
    ? `; + ${retrieval.dateWindow.weight} when the message names a month or a day with its year and the memory was created then or up to ${retrieval.dateWindow.daysAfter} days after`
    : "";
  if (!fusion) return `${score}; ${recency}; ${threshold}${dated}.`;
  const { rrfK: k, vectorWeight: wv, textWeight: wt } = fusion;
  const relevance =
    `relevance = (${wv}/(${k} + vector rank) + ${wt}/(${k} + text rank)) / (${wv + wt}/${k + 1})` +
    " — the similarity ranking fused with the BM25 word ranking (no word in common: that term is 0)";
  return `${score}; ${relevance}; ${recency}; ${threshold}${dated}.`;
}

export function strategySummary(retrieval: Retrieval): string {
  const { weights, fusion, similarityThreshold } = retrieval;
  const threshold =
    similarityThreshold <= -1 ? "no similarity threshold" : `similarity threshold ${similarityThreshold}`;
  const first = fusion ? "relevance" : "similarity";
  const weighting = `weights ${weights.similarity} ${first} · ${weights.importance} importance · ${weights.recency} recency`;
  const fused = fusion ? `vector and word (BM25) rankings fused (RRF, k = ${fusion.rrfK})` : "no fusion";
  return `${retrieval.strategy ?? "custom"} — ${threshold}; ${weighting}; ${fused}`;
}

/** A trace's candidate pass; traces of the retired HNSW path ("approximate") also hold its scan settings. */
export type TracedCandidatePass = Omit<CandidatePassUse, "index"> & {
  index?: string;
  efSearch?: number;
  iterativeScan?: string;
  fellBack?: boolean;
};

/** Also reads traces of the retired fast and HNSW paths; null for traces stored before the path was recorded. */
export function pathSummary(
  semantic: {
    path?: "exact" | "fast" | "approximate" | "two-stage";
    certified?: boolean | null;
    index?: TracedCandidatePass;
  } | null,
  semanticLimit: number,
): string | null {
  if (!semantic?.path) return null;
  if (semantic.path === "fast") return `fast path — certified equal to the exact top ${semanticLimit}`;
  const index = semantic.index;
  const n = (value: number) => value.toLocaleString("en-GB");
  const textMatches = (pass: TracedCandidatePass) => {
    const text = pass.scored - pass.returned;
    return text > 0 ? ` and ${n(text)} text matches` : "";
  };
  if (semantic.path === "two-stage" && index)
    return (
      `two-stage — ${n(index.memories)} memories (over ${n(index.minMemories)}): the ${n(index.returned)} nearest ` +
      `by sign code (${index.index}, ${n(index.asked)} asked)${textMatches(index)} scored on their exact distances`
    );
  if (semantic.path === "approximate" && index)
    return (
      `approximate — ${n(index.memories)} memories (over ${n(index.minMemories)}): the HNSW index's ` +
      `${n(index.returned)} nearest${textMatches(index)} scored (ef_search ${index.efSearch}, ${index.iterativeScan})`
    );
  if (semantic.path === "approximate" || semantic.path === "two-stage") return semantic.path;
  if (index?.fellBack)
    return `exact statement — the HNSW index returned ${n(index.returned)} of ${n(index.asked)} candidates`;
  return semantic.certified === false
    ? `exact statement — the fast path could not certify its top ${semanticLimit}`
    : "exact statement (every memory scored)";
}

export function dateWindowSummary(
  window: { start: string; end: string } | null | undefined,
  weight: number,
): string | null {
  if (!window) return null;
  const day = (iso: string) =>
    new Date(iso).toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
  // The window's end is exclusive: its last day is the day before.
  const last = new Date(new Date(window.end).getTime() - DAY_MS).toISOString();
  return `This message names a date: memories created from ${day(window.start)} to ${day(last)} (UTC) scored ${weight} more.`;
}
