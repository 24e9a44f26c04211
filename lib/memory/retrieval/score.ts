/**
 * The reference scorer: `retrieve.ts` computes exactly this in SQL and a property test holds the two
 * equal. Change one, change the other.
 *
 *   similarity = 1 − cosine distance
 *   relevance  = similarity                                           (no fusion)
 *              = (wv/(k + vectorRank) + wt/(k + textRank)) / ((wv + wt)/(k + 1))   (fusion: RRF)
 *   recency    = 1 − min(1, whole days since updated_at / recencyWindowDays)
 *   score      = w.similarity·relevance + w.importance·importance + w.recency·recency
 *              [ + dateWindow.weight·dateMatch    only when the message names a date (date-window.ts) ]
 *   dateMatch  = 1 if created_at ∈ [window.start, window.end) else 0
 *   keep       similarity ≥ similarityThreshold (with fusion and textBypassesThreshold: or a text match)
 *   order      = score desc, then id asc; rank 1…n; rank ≤ semanticLimit is selected
 *
 * With fusion, vectorRank is the memory's rank by similarity among all the user's comparable
 * memories, and textRank its rank by BM25 (`bm25Scores`) among those matching a query term
 * (none: that term of the sum is 0). Both rankings are taken before the threshold.
 */
import { half } from "@/db/queries/vectors";

export interface FusionConfig {
  /** RRF constant: rank r contributes weight / (rrfK + r). */
  readonly rrfK: number;
  readonly vectorWeight: number;
  readonly textWeight: number;
  readonly bm25K1: number;
  readonly bm25B: number;
  /** true: a memory matching a query term is a candidate even when its similarity is below the threshold. */
  readonly textBypassesThreshold: boolean;
}

export interface ScoringConfig {
  /** −1 keeps everything. */
  readonly similarityThreshold: number;
  /** `similarity` weighs the relevance, which is the fused relevance with `fusion`. */
  readonly weights: { readonly similarity: number; readonly importance: number; readonly recency: number };
  readonly recencyWindowDays: number;
  /** Absent or null: relevance is the cosine similarity. */
  readonly fusion?: FusionConfig | null;
  readonly dateWindow?: DateWindowConfig | null;
}

export interface DateWindowConfig {
  readonly weight: number;
  readonly daysAfter: number;
}

/** [start, end) */
export interface DateWindow {
  readonly start: Date;
  readonly end: Date;
}

export interface RankingConfig extends ScoringConfig {
  readonly semanticLimit: number;
}

export interface ScoreComponents {
  similarity: number;
  /** As Postgres computes with it: the stored float4 value, widened to float8. */
  importance: number;
  recency: number;
  /** Absent when the message names no date. */
  dateMatch?: number;
  score: number;
}

export interface FusionComponents {
  vectorRank: number;
  /** null when the memory matches no query term. */
  textRank: number | null;
  textScore: number | null;
  /** What `weights.similarity` multiplies: the normalised RRF, in (0, 1]. */
  relevance: number;
}

export interface ScoreInput {
  id: string;
  similarity: number;
  /** The importance as given; it is rounded to float4 like the `real` column stores it. */
  importance: number;
  updatedAt: Date;
  /** Absent: never in a date window. */
  createdAt?: Date;
  /** Absent or 0: no query term matched. */
  textScore?: number;
}

export interface RankedCandidate extends ScoreComponents, Partial<FusionComponents> {
  id: string;
  rank: number;
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

export function recencyOf(updatedAt: Date, now: Date, windowDays: number): number {
  return 1 - Math.min(1, wholeDaysSince(updatedAt, now) / windowDays);
}

export function dateMatchOf(createdAt: Date | undefined, window: DateWindow): number {
  const t = createdAt?.getTime();
  return t !== undefined && t >= window.start.getTime() && t < window.end.getTime() ? 1 : 0;
}

/** The threshold is not applied here (`rankCandidates` does). */
export function scoreCandidate(
  input: Omit<ScoreInput, "id" | "textScore"> & { relevance?: number },
  now: Date,
  config: ScoringConfig,
  window: DateWindow | null = null,
): ScoreComponents {
  const importance = float4(input.importance);
  const recency = recencyOf(input.updatedAt, now, config.recencyWindowDays);
  const { weights } = config;
  const relevance = input.relevance ?? input.similarity;
  // Same operation order as the SQL, so both sides round identically.
  const base = weights.similarity * relevance + weights.importance * importance + weights.recency * recency;
  if (!window || !config.dateWindow) return { similarity: input.similarity, importance, recency, score: base };
  const dateMatch = dateMatchOf(input.createdAt, window);
  return {
    similarity: input.similarity,
    importance,
    recency,
    dateMatch,
    score: base + config.dateWindow.weight * dateMatch,
  };
}

export function fusedRelevance(vectorRank: number, textRank: number | null, fusion: FusionConfig): number {
  const { rrfK: k, vectorWeight, textWeight } = fusion;
  const text = textRank === null ? 0 : textWeight / (k + textRank);
  return (vectorWeight / (k + vectorRank) + text) / ((vectorWeight + textWeight) / (k + 1));
}

function fuse(inputs: readonly ScoreInput[], fusion: FusionConfig): Map<string, FusionComponents> {
  const bySimilarity = [...inputs].sort((a, b) => b.similarity - a.similarity || compareIds(a.id, b.id));
  const byText = inputs
    .filter((input) => (input.textScore ?? 0) > 0)
    .sort((a, b) => (b.textScore ?? 0) - (a.textScore ?? 0) || compareIds(a.id, b.id));
  const textRanks = new Map(byText.map((input, i) => [input.id, i + 1]));
  return new Map(
    bySimilarity.map((input, i) => {
      const textRank = textRanks.get(input.id) ?? null;
      const components: FusionComponents = {
        vectorRank: i + 1,
        textRank,
        textScore: textRank === null ? null : (input.textScore ?? null),
        relevance: fusedRelevance(i + 1, textRank, fusion),
      };
      return [input.id, components];
    }),
  );
}

/**
 * NaN never passes the threshold; with fusion the fused rankings are taken before it. Ids compare as
 * strings: for lowercase canonical UUIDs this is Postgres's uuid order.
 */
export function rankCandidates(
  inputs: readonly ScoreInput[],
  now: Date,
  config: RankingConfig,
  window: DateWindow | null = null,
): RankedCandidate[] {
  const comparable = inputs.filter((input) => !Number.isNaN(input.similarity));
  const { fusion } = config;
  const fused = fusion ? fuse(comparable, fusion) : null;
  return comparable
    .flatMap((input): Omit<RankedCandidate, "rank" | "selected">[] => {
      const components = fused?.get(input.id);
      const kept =
        input.similarity >= config.similarityThreshold ||
        (fusion?.textBypassesThreshold === true && components?.textRank != null);
      if (!kept) return [];
      if (!components) return [{ id: input.id, ...scoreCandidate(input, now, config, window) }];
      return [
        {
          id: input.id,
          ...scoreCandidate({ ...input, relevance: components.relevance }, now, config, window),
          ...components,
        },
      ];
    })
    .sort((a, b) => b.score - a.score || compareIds(a.id, b.id))
    .map((candidate, index) => ({ ...candidate, rank: index + 1, selected: index < config.semanticLimit }));
}

/** lexeme → term frequency (its number of positions), as the SQL counts it. */
export interface TermDocument {
  id: string;
  terms: ReadonlyMap<string, number>;
}

/**
 *   Σ over matched terms:  idf · tf·(k1 + 1) / (tf + k1·(1 − b + b·len/avgLen)),  idf = ln(1 + (N − df + 0.5)/(df + 0.5))
 * Summing in lexeme order (the SQL's `ORDER BY lexeme COLLATE "C"`) makes both sides bit-identical.
 */
export function bm25Scores(
  documents: readonly TermDocument[],
  queryTerms: readonly string[],
  params: { k1: number; b: number },
): Map<string, number> {
  const lengthOf = (doc: TermDocument) => [...doc.terms.values()].reduce((sum, tf) => sum + tf, 0);
  const n = documents.length;
  const avgLen = documents.reduce((sum, doc) => sum + lengthOf(doc), 0) / n;
  const terms = [...new Set(queryTerms)].sort(compareIds);
  const df = new Map(terms.map((term) => [term, documents.filter((doc) => doc.terms.has(term)).length]));
  const scores = new Map<string, number>();
  const { k1, b } = params;
  for (const doc of documents) {
    const len = lengthOf(doc);
    let score: number | null = null;
    for (const term of terms) {
      const tf = doc.terms.get(term);
      if (tf === undefined) continue;
      const d = df.get(term) ?? 0;
      const value =
        (Math.log(1 + (n - d + 0.5) / (d + 0.5)) * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * len) / avgLen));
      score = score === null ? value : score + value;
    }
    if (score !== null) scores.set(doc.id, score);
  }
  return scores;
}

function compareIds(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}

/**
 * As the SQL sees it: both sides are halfvecs. pgvector accumulates in float4, this in float8, so they
 * agree exactly when every partial sum is exact and to ~1e-6 otherwise.
 */
export function cosineSimilarity(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) throw new Error(`different vector dimensions ${a.length} and ${b.length}`);
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    const x = half(a[i] ?? 0);
    const y = half(b[i] ?? 0);
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  const cosine = Math.min(1, Math.max(-1, dot / Math.sqrt(normA * normB)));
  return 1 - (1 - cosine);
}
