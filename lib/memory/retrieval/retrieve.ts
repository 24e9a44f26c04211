/**
 * Semantic branch: ONE SQL statement scores and ranks every comparable memory of the user (exact by
 * construction), or, above the measured crossover, the same formula over the K nearest by sign code
 * (docs/performance.md). score.ts is the reference formula both are tested against.
 */
import { type SQL, sql } from "drizzle-orm";
import { type ApproximateRetrievalConfig, approximateRetrievalConfig, EMBEDDING_DIMENSIONS } from "@/core/config";
import { type Db, selectRows } from "@/db/client";
import { awaitsEmbedder } from "@/db/queries/reembed";
import { comparableWith, isComparableSimilarity, ownedBy, similarityTo } from "@/db/queries/similarity";
import { halfvecValue } from "@/db/queries/vectors";
import { type DatePeriod, dateWindowOf } from "./date-window";
import type { RetrievedMemory } from "./memory-row";
import type { FusionComponents, FusionConfig, RankingConfig, ScoreComponents } from "./score";

export interface SemanticConfig extends RankingConfig {
  /** Rows returned in all: the selected ones plus the best of those that lost to the limit. */
  readonly traceCandidateLimit: number;
  /** Near-misses listed below the threshold (never selected); absent or 0 in configs stored before them. */
  readonly nearMissLimit?: number;
  readonly strategy?: string;
  /** Measured per embedder; the query applies `similarityThreshold` only, so resolve first (`forEmbedder`). */
  readonly similarityThresholds?: Readonly<Record<string, number>>;
  /** Per embedder; the query applies `fusion.vectorWeight` only, so resolve first (`forEmbedder`). */
  readonly vectorWeights?: Readonly<Record<string, number>>;
}

export interface SemanticCandidate extends RetrievedMemory, ScoreComponents, Partial<FusionComponents> {
  /** 1-based position among all of the user's above-threshold memories. */
  rank: number;
  /** rank ≤ semanticLimit; the others are listed only so the trace can show them dropped by limit. */
  selected: boolean;
}

export interface SemanticResult {
  /** The top max(semanticLimit, traceCandidateLimit) above-threshold memories, by rank. */
  candidates: SemanticCandidate[];
  /** Most similar first; `rank` is the position in this list, with the score each would have had. */
  nearMisses: SemanticCandidate[];
  /** May exceed `candidates.length`. */
  aboveThreshold: number;
  /** Active memories of another embedder (or none) waiting to be re-embedded; 0 without `embeddingModel`. */
  waitingForReembedding: number;
  path: "exact" | "two-stage";
  /** Set when the two-stage pass answered: what it asked of its index and what it got (the trace records it). */
  index?: CandidatePassUse;
  /** ISO instants; null when the message named no date or the strategy has no window. */
  dateWindow: { start: string; end: string } | null;
}

export interface CandidatePassUse {
  /** The user's comparable memories (the count the crossover is compared with). */
  memories: number;
  /** The crossover in force: the two-stage pass runs above it. */
  minMemories: number;
  /** K, the candidates asked of the first stage, and the rows it returned (K whenever the user has K). */
  asked: number;
  returned: number;
  /** Rows scored: the candidates and the memories sharing a word with the message. */
  scored: number;
  /** The index the first stage reads. */
  index: string;
}

export interface SemanticQuery {
  userId: string;
  /** The query embedding; EMBEDDING_DIMENSIONS finite numbers, not all zero. */
  embedding: readonly number[];
  /** Vectors of different embedders are not comparable; omitted: every embedded memory (hand-made test vectors). */
  embeddingModel?: string;
  /** Omitted: no text matches. */
  text?: string;
  now: Date;
  config: SemanticConfig;
  /** null: always exact. Runs only with an `embeddingModel`. */
  approximate?: ApproximateRetrievalConfig | null;
  /** The count `startComparableCount` began reading for this query, if the caller started it before the embedding. */
  comparable?: Promise<number>;
}

/** A ranked row, or (all nulls but `waiting`) the one row of a query that ranked nothing. */
interface SemanticRow extends Record<string, unknown> {
  id: string | null;
  similarity: number;
  importance: number;
  recency: number;
  relevance: number;
  vector_rank: number | null;
  text_rank: number | null;
  text_score: number | null;
  date_match: number | null;
  score: number;
  rank: number;
  above_threshold: number;
  title: string | null;
  content: string;
  created_at_ms: number;
  updated_at_ms: number;
  waiting: number;
  /** true: a near-miss; rank is then its position among near-misses. */
  below: boolean | null;
}

/**
 * Reads only: the caller counts access for what the prompt carries (access.ts).
 *
 * The exact statement uses no vector index: an index orders by distance approximately, and a missed
 * nearer memory shifts every vector rank below it. Its cost is linear in the user's memory count
 * (one halfvec distance each, one sort). Above the measured `approximateRetrievalConfig.minMemories`
 * the two-stage pass answers instead: K candidates by Hamming distance, then this formula over them.
 */
export async function retrieveSemantic(db: Db, query: SemanticQuery): Promise<SemanticResult> {
  const vector = halfvecValue(query.embedding); // An embedding it cannot compare is refused before any SQL.
  const twoStage = twoStageFor(query);
  const { embeddingModel } = query;
  const comparable = query.comparable ?? startComparableCount(db, query);
  if (twoStage && embeddingModel !== undefined && comparable && (await comparable) > twoStage.minMemories) {
    const k = Math.trunc(twoStage.candidatesFor?.[embeddingModel] ?? twoStage.candidates);
    return scoreCandidates(db, { ...query, embeddingModel }, vector, {
      path: "two-stage",
      nearest: hammingNearest(query.userId, embeddingModel, vector, k),
      asked: k,
      index: CODE_INDEX,
      minMemories: twoStage.minMemories,
    });
  }
  return retrieveExact(db, query, vector);
}

function scoringTerms({ config, text }: SemanticQuery): {
  admitted: SQL;
  dateMatch: SQL;
  score: SQL;
  window: DatePeriod | null;
} {
  const { weights, fusion } = config;
  const admitted =
    fusion?.textBypassesThreshold === true
      ? sql`(similarity >= ${config.similarityThreshold}::float8 OR text_rank IS NOT NULL)`
      : sql`similarity >= ${config.similarityThreshold}::float8`;
  const window = config.dateWindow ? dateWindowOf(text, config.dateWindow.daysAfter) : null;
  const dateMatch = window
    ? sql`CASE WHEN created_at >= ${window.start.toISOString()}::timestamptz
                AND created_at < ${window.end.toISOString()}::timestamptz THEN 1 ELSE 0 END::float8`
    : sql`NULL::float8`;
  const dateTerm = window && config.dateWindow ? sql` + ${config.dateWindow.weight}::float8 * date_match` : sql``;
  const score = sql`${weights.similarity}::float8 * relevance
                 + ${weights.importance}::float8 * importance
                 + ${weights.recency}::float8 * recency${dateTerm}`;
  return { admitted, dateMatch, score, window };
}

/**
 * Whole days since the last update. Subtracting timestamps gives an interval justified into days and a time under
 * 24 hours, so its day field is the floor of the days elapsed (toward zero for a future instant, which the clamp
 * makes 0 either way), read as a float8 without numeric arithmetic.
 */
function recencyColumn(at: string, windowDays: number): SQL {
  return sql`1 - LEAST(1, GREATEST(0, date_part('day', ${at}::timestamptz - updated_at)) / ${windowDays}::float8) AS recency`;
}

/**
 * What each scanned row carries: its distance, computed once; with fusion its tsvector, only where it shares a
 * lexeme with the message (tested on the row in hand, not found again through the full-text index). Recency is
 * computed later, for the rows scored only.
 */
function scannedColumns(query: SemanticQuery, similarity: SQL): SQL {
  const matched = query.config.fusion
    ? sql`CASE WHEN search_vector @@ (SELECT q FROM text_query) THEN search_vector END`
    : sql`NULL::tsvector`;
  return sql`id,
               ${similarity} AS similarity,
               importance::float8 AS importance,
               updated_at,
               ${scoringTerms(query).dateMatch} AS date_match,
               search_length,
               ${matched} AS matched_vector`;
}

const LEXEMES_OR_QUERY = sql`string_agg('''' || replace(replace(lexeme, '\\', '\\\\'), '''', '''''') || '''', ' | ')::tsquery`;

/** The message's lexemes and their OR query (none: a NULL query, which matches nothing). */
const textQuery = (text: string) =>
  sql`query_terms AS (SELECT DISTINCT lexeme FROM unnest(to_tsvector('english', ${text}))),
      text_query AS (SELECT ${LEXEMES_OR_QUERY} AS q FROM query_terms),`;

/** What the scoring reads of a pooled row (not its tsvector, which only BM25 reads). */
const SCORED = sql`p.id, p.similarity, p.importance, p.updated_at, p.date_match`;

/** The comparable rows: a zero vector's NaN distance, or another embedder's NULL, never ranks. Inlined, not copied. */
const POOL = sql`pool AS NOT MATERIALIZED (SELECT * FROM scanned WHERE ${isComparableSimilarity(sql`similarity`)})`;

/**
 * BM25 over the pool's lexeme matches, fused with the vector ranking by normalised reciprocal rank fusion.
 * `corpus` gives N and the average length of the user's comparable memories, so text ranks equal what unnesting
 * every tsvector gives. Ranks are taken before the threshold: where the threshold alone admits (no text bypass),
 * every admitted row is more similar than every row it keeps out, so the admitted rows are ranked among themselves
 * (the rows kept out are never sorted) and the k-th most similar near-miss has rank admitted + k.
 */
function fusedRanks(config: SemanticConfig, fusion: FusionConfig, corpus: SQL, admitted: SQL, nearMisses: number): SQL {
  const { bm25K1: k1, bm25B: b } = fusion;
  const similar = sql`ORDER BY p.similarity DESC, p.id`;
  const ranks =
    fusion.textBypassesThreshold === true
      ? sql`every_ranked AS (
        SELECT ${SCORED}, row_number() OVER (${similar})::int AS vector_rank, t.text_rank, t.text_score
        FROM pool p LEFT JOIN text_ranked t ON t.id = p.id
      ),
      vector_ranked AS (SELECT * FROM every_ranked WHERE ${admitted}),
      near AS (SELECT * FROM every_ranked p WHERE NOT (${admitted}) ${similar} LIMIT ${nearMisses}::int)`
      : sql`vector_ranked AS (
        SELECT ${SCORED}, row_number() OVER (${similar})::int AS vector_rank, t.text_rank, t.text_score
        FROM pool p LEFT JOIN text_ranked t ON t.id = p.id
        WHERE p.similarity >= ${config.similarityThreshold}::float8
      ),
      near AS (
        SELECT ${SCORED}, ((SELECT count(*) FROM vector_ranked) + row_number() OVER (${similar}))::int AS vector_rank,
               t.text_rank, t.text_score
        FROM (SELECT * FROM pool p WHERE NOT (${admitted}) ${similar} LIMIT ${nearMisses}::int) p
        LEFT JOIN text_ranked t ON t.id = p.id
      )`;
  return sql`${corpus},
      -- Matched again rather than "IS NOT NULL" (true of nearly every row for the planner): the estimate of a text
      -- match keeps the statement's estimated cost, and with it JIT compilation, where it was.
      matches AS (
        SELECT p.id, t.lexeme, coalesce(cardinality(t.positions), 1)::float8 AS tf, p.search_length::float8 AS len
        FROM pool p CROSS JOIN LATERAL unnest(p.matched_vector) AS t
        WHERE p.matched_vector @@ (SELECT q FROM text_query) AND t.lexeme IN (SELECT lexeme FROM query_terms)
      ),
      df AS (SELECT lexeme, count(*)::float8 AS df FROM matches GROUP BY lexeme),
      bm25 AS (
        SELECT m.id,
               sum(ln(1 + (c.n - d.df + 0.5) / (d.df + 0.5)) * m.tf * (${k1}::float8 + 1)
                   / (m.tf + ${k1}::float8 * (1 - ${b}::float8 + ${b}::float8 * m.len / c.avg_len))
                   ORDER BY m.lexeme COLLATE "C") AS text_score
        FROM matches m JOIN df d ON d.lexeme = m.lexeme CROSS JOIN corpus c
        GROUP BY m.id
      ),
      text_ranked AS (
        SELECT id, text_score, row_number() OVER (ORDER BY text_score DESC, id)::int AS text_rank FROM bm25
      ),
      ${ranks}`;
}

/** Without fusion relevance is the similarity: no ranks, nothing sorted but the bounded tops. */
function plainRanks(admitted: SQL, nearMisses: number): SQL {
  const unranked = sql`NULL::int AS vector_rank, NULL::int AS text_rank, NULL::float8 AS text_score`;
  return sql`vector_ranked AS (SELECT ${SCORED}, ${unranked} FROM pool p WHERE ${admitted}),
      near AS (
        SELECT ${SCORED}, ${unranked} FROM pool p WHERE NOT (${admitted}) ORDER BY p.similarity DESC, p.id LIMIT ${nearMisses}::int
      )`;
}

/** From `pool` to `ranked` (the listed top by score, with the admitted count) and `below` (the near-misses). */
function rankedAndBelow(query: SemanticQuery, corpus: SQL): SQL {
  const { config } = query;
  const { fusion } = config;
  const { admitted, score } = scoringTerms(query);
  const listed = Math.max(config.semanticLimit, config.traceCandidateLimit);
  const nearMisses = Math.max(0, config.nearMissLimit ?? 0);
  const recency = recencyColumn(query.now.toISOString(), config.recencyWindowDays);
  const relevance = fusion
    ? sql`(${fusion.vectorWeight}::float8 / (${fusion.rrfK}::float8 + vector_rank)
                 + coalesce(${fusion.textWeight}::float8 / (${fusion.rrfK}::float8 + text_rank), 0))
                 / ((${fusion.vectorWeight}::float8 + ${fusion.textWeight}::float8) / (${fusion.rrfK}::float8 + 1))`
    : sql`similarity`;
  return sql`${POOL},
      ${fusion ? fusedRanks(config, fusion, corpus, admitted, nearMisses) : plainRanks(admitted, nearMisses)},
      above AS (
        SELECT *, ${score} AS score FROM (SELECT *, ${relevance} AS relevance, ${recency} FROM vector_ranked) r
      ),
      -- The listed top: a bounded sort of the admitted rows (no window over every row), then their count.
      ranked AS (
        SELECT id, similarity, importance, recency, relevance, vector_rank, text_rank, text_score, date_match, score,
               row_number() OVER (ORDER BY score DESC, id)::int AS rank,
               (SELECT count(*) FROM above)::int AS above_threshold
        FROM (SELECT * FROM above ORDER BY score DESC, id LIMIT ${listed}::int) top
      ),
      -- The near-misses: the most similar of those the threshold kept out, with the score they would have had.
      below AS (
        SELECT id, similarity, importance, recency, relevance, vector_rank, text_rank, text_score, date_match,
               ${score} AS score, row_number() OVER (ORDER BY similarity DESC, id)::int AS rank
        FROM (SELECT *, ${relevance} AS relevance, ${recency} FROM near) r
      )`;
}

async function retrieveExact(db: Db, query: SemanticQuery, vector: SQL): Promise<SemanticResult> {
  const { userId } = query;
  const comparable = comparableWith(query.embeddingModel);
  const waits = query.embeddingModel === undefined ? sql`false` : awaitsEmbedder(query.embeddingModel);
  const { window } = scoringTerms(query);
  const pooled = isComparableSimilarity(sql`similarity`);

  const rows = await selectRows<SemanticRow>(
    db,
    sql`
      WITH ${textQuery(query.text ?? "")}
      -- One pass over the user's active memories: the distance of each comparable one (computed once,
      -- not once per reference), and whether each of the others waits for re-embedding.
      scanned AS MATERIALIZED (
        SELECT ${scannedColumns(query, sql`CASE WHEN ${comparable} THEN ${similarityTo(vector)} END`)},
               CASE WHEN ${comparable} THEN false ELSE ${waits} END AS waits
        FROM memories
        WHERE ${ownedBy(userId, ["active"])}
      ),
      -- BM25's N and average length, and the count waiting for re-embedding, in one pass.
      totals AS (
        SELECT count(*) FILTER (WHERE ${pooled})::float8 AS n,
               sum(search_length) FILTER (WHERE ${pooled})::float8
                 / NULLIF(count(*) FILTER (WHERE ${pooled}), 0)::float8 AS avg_len,
               count(*) FILTER (WHERE waits)::int AS waiting
        FROM scanned
      ),
      ${rankedAndBelow(query, sql`corpus AS (SELECT n, avg_len FROM totals)`)},
      waiting AS (SELECT waiting AS n FROM totals),
      ${LISTED}
      -- One row even when nothing is listed, to carry the counts.
      SELECT ${LISTED_COLUMNS},
             w.n AS waiting
      FROM waiting w
      LEFT JOIN (listed r JOIN memories m ON m.id = r.id) ON true
      ORDER BY r.below, r.rank`,
  );
  return {
    ...toResult(rows, query.config),
    path: "exact",
    dateWindow: window && { start: window.start.toISOString(), end: window.end.toISOString() },
  };
}

const LISTED = sql`listed AS (
        SELECT id, similarity, importance, recency, relevance, vector_rank, text_rank, text_score, date_match, score,
               rank, above_threshold, false AS below
        FROM ranked
        UNION ALL
        SELECT id, similarity, importance, recency, relevance, vector_rank, text_rank, text_score, date_match, score,
               rank, NULL::int AS above_threshold, true AS below
        FROM below
      )`;
const LISTED_COLUMNS = sql`r.id, r.similarity, r.importance, r.recency, r.relevance, r.vector_rank, r.text_rank,
             r.text_score, r.date_match, r.score, r.rank, r.above_threshold, r.below, m.title, m.content,
             floor(extract(epoch FROM m.created_at) * 1000)::float8 AS created_at_ms,
             floor(extract(epoch FROM m.updated_at) * 1000)::float8 AS updated_at_ms`;

function toResult(rows: readonly SemanticRow[], config: SemanticConfig): Omit<SemanticResult, "path" | "dateWindow"> {
  const { fusion } = config;
  const found = rows.filter((row): row is SemanticRow & { id: string } => row.id !== null);
  const ranked = found.filter((row) => row.below !== true);
  const toCandidate = (row: SemanticRow & { id: string }, selected: boolean): SemanticCandidate => ({
    id: row.id,
    title: row.title,
    content: row.content,
    importance: row.importance,
    createdAt: new Date(row.created_at_ms),
    updatedAt: new Date(row.updated_at_ms),
    similarity: row.similarity,
    recency: row.recency,
    ...(row.date_match === null ? {} : { dateMatch: row.date_match }),
    score: row.score,
    rank: row.rank,
    selected,
    ...(fusion
      ? {
          relevance: row.relevance,
          vectorRank: row.vector_rank ?? 0,
          textRank: row.text_rank,
          textScore: row.text_score,
        }
      : {}),
  });

  return {
    candidates: ranked.map((row) => toCandidate(row, row.rank <= config.semanticLimit)),
    nearMisses: found.filter((row) => row.below === true).map((row) => toCandidate(row, false)),
    aboveThreshold: ranked[0]?.above_threshold ?? 0,
    waitingForReembedding: rows[0]?.waiting ?? 0,
  };
}

/** The two-stage configuration in force for the query's embedder; null: the exact statement at any size. */
function twoStageFor({ approximate, embeddingModel }: Pick<SemanticQuery, "approximate" | "embeddingModel">) {
  const twoStage = approximate === undefined ? approximateRetrievalConfig : approximate;
  return twoStage && embeddingModel !== undefined && !twoStage.exactFor?.includes(embeddingModel) ? twoStage : null;
}

/**
 * The user's memories the semantic statement would compare for this embedder, when a crossover applies to it
 * (undefined otherwise): one primary-key read of memory_stats (migration 0032), kept by triggers in the transaction
 * of each memory write. The chat turn starts it beside the embedding (assemble.ts), so on Postgres its round trip
 * overlaps the embedder's instead of following it.
 */
export function startComparableCount(
  db: Db,
  query: Pick<SemanticQuery, "userId" | "approximate" | "embeddingModel">,
): Promise<number> | undefined {
  const { userId, embeddingModel } = query;
  if (!twoStageFor(query) || embeddingModel === undefined) return undefined;
  const read = selectRows<{ comparable: number }>(
    db,
    sql`SELECT comparable FROM memory_stats WHERE user_id = ${userId}::uuid AND vector_space = ${embeddingModel}`,
  ).then(([row]) => row?.comparable ?? 0);
  read.catch(() => {}); // Awaited by retrieveSemantic, which reports a failure; unawaited if the embedding failed first.
  return read;
}

/** The index the first stage reads (migration 0025): the user's active memories with their codes, no heap row. */
export const CODE_INDEX = "memories_user_code_idx";

/**
 * The first stage: the user's K comparable memories nearest by Hamming distance between sign codes. The
 * ORDER BY expression is no index's, so the planner cannot swap in an approximate scan: it reads every one
 * of the user's entries in CODE_INDEX and keeps the top K, which it always finds when the user has K.
 */
export function hammingNearest(userId: string, embeddingModel: string, vector: SQL, k: number): SQL {
  return sql`SELECT id FROM memories
        WHERE user_id = ${userId}::uuid AND status = 'active' AND embedding_model = ${embeddingModel}
          AND embedding_code IS NOT NULL
        ORDER BY embedding_code <~> binary_quantize(${vector})::bit(${sql.raw(String(EMBEDDING_DIMENSIONS))}), id
        LIMIT ${k}::int`;
}

export interface CandidatePass {
  path: SemanticResult["path"];
  /** A statement returning candidate ids (at most `asked`). */
  nearest: SQL;
  asked: number;
  index: string;
  minMemories: number;
}

/**
 * The exact statement's formula over candidates only: the first stage's K plus, with fusion, every lexeme
 * match, each scored on its exact stored distance. Exact where the candidates hold the true top; vector
 * ranks are ranks among the candidates (only ever better than the true ones), and `aboveThreshold` and
 * near-misses are counted among them. BM25's N and average length, and the count waiting for re-embedding,
 * come from memory_stats, read in the statement's own snapshot, so they equal what the exact statement
 * would compute from the rows it scans.
 */
export async function scoreCandidates(
  db: Db,
  query: SemanticQuery & { embeddingModel: string },
  vector: SQL,
  pass: CandidatePass,
): Promise<SemanticResult> {
  const { userId, config, embeddingModel } = query;
  const { window } = scoringTerms(query);
  const owned = ownedBy(userId, ["active"]);
  const comparable = comparableWith(query.embeddingModel);
  const textHits = config.fusion
    ? sql`UNION
          SELECT id FROM memories
          WHERE ${owned} AND ${comparable} AND search_vector @@ (SELECT q FROM text_query)`
    : sql``;
  const statement = sql`
      WITH ${textQuery(query.text ?? "")}
      -- The user's comparable memories and their BM25 lengths, and those of other spaces with text (memory_stats).
      stats AS (
        SELECT coalesce(sum(comparable) FILTER (WHERE vector_space = ${embeddingModel}), 0)::float8 AS n,
               coalesce(sum(comparable_length) FILTER (WHERE vector_space = ${embeddingModel}), 0)::float8 AS total_len,
               coalesce(sum(with_text) FILTER (WHERE vector_space <> ${embeddingModel}), 0)::int AS waiting
        FROM memory_stats WHERE user_id = ${userId}::uuid
      ),
      nearest AS MATERIALIZED (${pass.nearest}),
      chosen AS (SELECT id FROM nearest ${textHits}),
      -- Each candidate's exact distance, from its stored vector.
      scanned AS MATERIALIZED (
        SELECT ${scannedColumns(query, similarityTo(vector))}
        FROM memories
        WHERE id IN (SELECT id FROM chosen) AND ${owned} AND ${comparable}
      ),
      ${rankedAndBelow(query, sql`corpus AS (SELECT n, total_len / NULLIF(n, 0) AS avg_len FROM stats)`)},
      waiting AS (SELECT waiting AS n FROM stats),
      ${LISTED}
      SELECT ${LISTED_COLUMNS},
             w.n AS waiting,
             (SELECT n FROM stats)::int AS memories,
             (SELECT count(*) FROM nearest)::int AS returned,
             (SELECT count(*) FROM scanned)::int AS scored
      FROM waiting w
      LEFT JOIN (listed r JOIN memories m ON m.id = r.id) ON true
      ORDER BY r.below, r.rank`;
  const rows = await selectRows<SemanticRow & { memories: number; returned: number; scored: number }>(db, statement);
  return {
    ...toResult(rows, config),
    path: pass.path,
    index: {
      memories: rows[0]?.memories ?? 0,
      minMemories: pass.minMemories,
      asked: pass.asked,
      returned: rows[0]?.returned ?? 0,
      scored: rows[0]?.scored ?? 0,
      index: pass.index,
    },
    dateWindow: window && { start: window.start.toISOString(), end: window.end.toISOString() },
  };
}
