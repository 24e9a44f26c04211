/**
 * The reference scorer: the semantic branch's formula and ranking in plain TypeScript.
 *
 * `retrieve.ts` computes exactly this in one SQL query; the property test holds the two equal,
 * and the docs' worked example is computed here. Keep both in step: change one, change the other.
 *
 *   similarity = 1 − cosine distance                     (kept only when ≥ similarityThreshold)
 *   recency    = 1 − min(1, whole days since updated_at / recencyWindowDays)
 *   score      = w.similarity·similarity + w.importance·importance + w.recency·recency
 *   order      = score desc, then id asc; rank 1…n; rank ≤ semanticLimit is selected
 */

/** The numbers of the scoring formula (a subset of `retrievalConfig`). */
export interface ScoringConfig {
  readonly similarityThreshold: number;
  readonly weights: { readonly similarity: number; readonly importance: number; readonly recency: number };
  readonly recencyWindowDays: number;
}

/** Scoring plus the cut: how many of the ranked candidates the branch selects. */
export interface RankingConfig extends ScoringConfig {
  readonly semanticLimit: number;
}

export interface ScoreComponents {
  similarity: number;
  /** As Postgres computes with it: the stored float4 value, widened to float8. */
  importance: number;
  recency: number;
  score: number;
}

export interface ScoreInput {
  id: string;
  similarity: number;
  /** The importance as given; it is rounded to float4 like the `real` column stores it. */
  importance: number;
  updatedAt: Date;
}

export interface RankedCandidate extends ScoreComponents {
  id: string;
  /** 1-based position among all above-threshold candidates. */
  rank: number;
  /** rank ≤ semanticLimit. */
  selected: boolean;
}

const MS_PER_DAY = 86_400_000;

/**
 * The value a float4 (`real`) column holds for `x`. `memories.importance` is float4, and the SQL
 * computes with `importance::float8`, so the reference must use the float4-rounded value too.
 */
export function float4(x: number): number {
  return Math.fround(x);
}

/** Whole days (floor) from `from` to `now`; a timestamp after `now` counts as 0 days. */
export function wholeDaysSince(from: Date, now: Date): number {
  return Math.max(0, Math.floor((now.getTime() - from.getTime()) / MS_PER_DAY));
}

/** 1 for a memory updated within the last day, falling linearly to 0 at `windowDays` whole days. */
export function recencyOf(updatedAt: Date, now: Date, windowDays: number): number {
  return 1 - Math.min(1, wholeDaysSince(updatedAt, now) / windowDays);
}

/** The score of one candidate (the threshold is not applied here; see `rankCandidates`). */
export function scoreCandidate(input: Omit<ScoreInput, "id">, now: Date, config: ScoringConfig): ScoreComponents {
  const importance = float4(input.importance);
  const recency = recencyOf(input.updatedAt, now, config.recencyWindowDays);
  const { weights } = config;
  // Same operation order as the SQL, so both sides round identically.
  const score = weights.similarity * input.similarity + weights.importance * importance + weights.recency * recency;
  return { similarity: input.similarity, importance, recency, score };
}

/**
 * Applies the threshold (a memory below it is never kept, whatever its importance; NaN never
 * passes), scores the rest, orders by score desc then id asc, and ranks them from 1.
 * Ids compare as strings: for lowercase canonical UUIDs this is Postgres's uuid order.
 */
export function rankCandidates(inputs: readonly ScoreInput[], now: Date, config: RankingConfig): RankedCandidate[] {
  return inputs
    .filter((input) => input.similarity >= config.similarityThreshold)
    .map((input) => ({ id: input.id, ...scoreCandidate(input, now, config) }))
    .sort((a, b) => b.score - a.score || compareIds(a.id, b.id))
    .map((candidate, index) => ({ ...candidate, rank: index + 1, selected: index < config.semanticLimit }));
}

function compareIds(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}

/**
 * Cosine similarity as the SQL sees it: pgvector stores float4 components, returns the distance
 * 1 − clamp(a·b / √(|a|²·|b|²), −1, 1), and the query takes 1 − that distance.
 * pgvector accumulates the sums in float4 (in a vectorised order); this accumulates in float8,
 * so the two agree exactly for small-integer vectors (every partial sum is exact) and to ~1e-6
 * otherwise.
 */
export function cosineSimilarity(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) throw new Error(`different vector dimensions ${a.length} and ${b.length}`);
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    const x = float4(a[i] ?? 0);
    const y = float4(b[i] ?? 0);
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  const cosine = Math.min(1, Math.max(-1, dot / Math.sqrt(normA * normB)));
  return 1 - (1 - cosine);
}
