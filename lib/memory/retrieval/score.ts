/**
 * The reference scorer: the semantic branch's formula and ranking in plain TypeScript.
 *
 * `retrieve.ts` computes exactly this in one SQL query; the property test holds the two equal,
 * and the docs' worked example is computed here. Keep both in step: change one, change the other.
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

/**
 * Hybrid retrieval: the vector ranking fused, by reciprocal rank fusion, with a BM25 ranking of
 * the memories' full-text vectors (memories.search_vector) against the message.
 */
export interface FusionConfig {
  /** RRF constant: rank r contributes weight / (rrfK + r). */
  readonly rrfK: number;
  readonly vectorWeight: number;
  readonly textWeight: number;
  /** BM25 term-frequency saturation. */
  readonly bm25K1: number;
  /** BM25 length normalisation (0: none, 1: full). */
  readonly bm25B: number;
  /** true: a memory matching a query term is a candidate even when its similarity is below the threshold. */
  readonly textBypassesThreshold: boolean;
}

/** The numbers of the scoring formula (a subset of `retrievalConfig`). */
export interface ScoringConfig {
  /** Cosine similarity below this is never kept (−1 keeps everything). */
  readonly similarityThreshold: number;
  /** `similarity` weighs the relevance: the similarity itself, or the fused relevance with `fusion`. */
  readonly weights: { readonly similarity: number; readonly importance: number; readonly recency: number };
  readonly recencyWindowDays: number;
  /** Absent or null: relevance is the cosine similarity. */
  readonly fusion?: FusionConfig | null;
  /**
   * The date-window preference: when the message names a month or a day with its year, memories
   * created in it or up to `daysAfter` days after it get `weight` more. Absent or null: none.
   */
  readonly dateWindow?: DateWindowConfig | null;
}

export interface DateWindowConfig {
  readonly weight: number;
  readonly daysAfter: number;
}

/** The instants a message's date window spans: [start, end) (date-window.ts `dateWindowOf`). */
export interface DateWindow {
  readonly start: Date;
  readonly end: Date;
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
  /** 1 when the memory was created in the message's date window, else 0; absent when the message names no date. */
  dateMatch?: number;
  score: number;
}

/** The fusion's components (present only when the strategy fuses a text ranking). */
export interface FusionComponents {
  /** Rank by similarity among all comparable memories, from 1. */
  vectorRank: number;
  /** Rank by BM25 among the memories matching a query term; null when it matches none. */
  textRank: number | null;
  /** The BM25 score; null when the memory matches no query term. */
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
  /** When the memory was created: what the date window compares (absent: never in it). */
  createdAt?: Date;
  /** BM25 of the memory against the message (see `bm25Scores`); absent or 0: no query term matched. */
  textScore?: number;
}

export interface RankedCandidate extends ScoreComponents, Partial<FusionComponents> {
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

/** 1 when `createdAt` lies in [window.start, window.end), else 0. */
export function dateMatchOf(createdAt: Date | undefined, window: DateWindow): number {
  const t = createdAt?.getTime();
  return t !== undefined && t >= window.start.getTime() && t < window.end.getTime() ? 1 : 0;
}

/**
 * The score of one candidate (the threshold is not applied here; see `rankCandidates`).
 * `relevance` is what `weights.similarity` multiplies: the similarity unless given (fusion).
 * `window`: the message's date window; with `config.dateWindow` it adds the date-match term.
 */
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

/** The normalised reciprocal rank fusion of a vector rank and a text rank (null: no text match). */
export function fusedRelevance(vectorRank: number, textRank: number | null, fusion: FusionConfig): number {
  const { rrfK: k, vectorWeight, textWeight } = fusion;
  const text = textRank === null ? 0 : textWeight / (k + textRank);
  return (vectorWeight / (k + vectorRank) + text) / ((vectorWeight + textWeight) / (k + 1));
}

/** Each comparable input's vector rank, text rank and fused relevance (the SQL's `fused` CTE). */
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
 * Applies the threshold (a memory below it is never kept, whatever its importance — unless the
 * fusion lets a text match through; NaN never passes), scores the rest, orders by score desc then
 * id asc, and ranks them from 1. `window`: the message's date window (see `scoreCandidate`). With fusion, the rankings it fuses are taken over every input
 * with a comparable similarity, before the threshold.
 * Ids compare as strings: for lowercase canonical UUIDs this is Postgres's uuid order.
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

/** A memory's full-text vector as BM25 reads it: lexeme → term frequency (its number of positions). */
export interface TermDocument {
  id: string;
  terms: ReadonlyMap<string, number>;
}

/**
 * BM25 of each document matching at least one of `queryTerms` (distinct lexemes), over the
 * corpus `documents` (the user's comparable memories):
 *   Σ over matched terms, in lexeme order:  idf · tf·(k1 + 1) / (tf + k1·(1 − b + b·len/avgLen))
 *   idf = ln(1 + (N − df + 0.5)/(df + 0.5)),  len = Σ tf of the document,  avgLen over the corpus
 * Documents matching no term are absent. Summing in lexeme order (the SQL's `ORDER BY lexeme
 * COLLATE "C"`) makes equal documents score bit-identically on both sides.
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
 * Cosine similarity as the SQL sees it: memories.embedding is a halfvec and the query is compared
 * as one (db/queries/vectors.ts), so both sides' components are the half-precision values
 * (`Math.f16round`); pgvector returns the distance 1 − clamp(a·b / √(|a|²·|b|²), −1, 1), and the
 * query takes 1 − that distance. pgvector accumulates the sums in float4 (in a vectorised order);
 * this accumulates in float8, so the two agree exactly when every partial sum is exact (small
 * integers, or multiples of 1/8 of a few units) and to ~1e-6 otherwise.
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
