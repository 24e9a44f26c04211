/**
 * The fast path of the semantic branch: the same formula as the exact statement (retrieve.ts,
 * score.ts), computed on a few hundred candidates instead of every memory of the user, with a
 * certificate computed in the same statement that no memory outside the candidates could enter
 * the selected top `semanticLimit`. Not certified: the caller runs the exact statement instead.
 *
 * Candidates:
 * - the `vectorCandidates` nearest memories by cosine distance: one distance per memory of the
 *   user, computed once, and a bounded sort (no window over every row, no second distance);
 * - the `textCandidates` best by BM25 among the memories matching a word of the message, found
 *   through the GIN index on search_vector. BM25 needs N, the average length and each term's
 *   document frequency: N and the total length come from memory_corpus_stats (kept by triggers,
 *   migration 0005), each memory's length from memories.search_length, and the document
 *   frequencies from the matches themselves — no tsvector of a non-matching memory is read.
 *
 * Every nearest candidate's vector rank is exact (all memories more similar are among them), and
 * every match's text rank is exact (all matches are scored). A memory outside the nearest
 * candidates has a vector rank of at least `outside_rank` (1 + the candidates strictly more similar
 * than the least similar one) and a similarity of at most that least similarity, so its score is
 * at most
 *     w.similarity · (wv/(k + outside_rank) + wt/(k + its text rank, or none)) / ((wv + wt)/(k + 1))
 *   + w.importance · 1 + w.recency · 1           (importance ≤ 1 by a check, recency ≤ 1)
 * — with its own importance, recency and text rank when it is a text candidate, and text rank
 * > textCandidates otherwise. Without fusion the relevance is the similarity: at most the least
 * similarity among the candidates. Certified when the memory ranked `semanticLimit` scores
 * strictly more than every such bound (or fewer than `semanticLimit` pass the threshold and no
 * outside memory could), and every selected memory is strictly more similar than the least
 * similar candidate (so its own vector rank is exact). The listed rows after the selected ones,
 * the near-misses and `aboveThreshold` are then taken among the candidates only.
 */
import { type SQL, sql } from "drizzle-orm";
import { type Db, selectRows } from "@/db/client";
import { awaitsEmbedder } from "@/db/queries/reembed";
import { vectorLiteral } from "@/db/queries/vectors";
import { LISTED, LISTED_COLUMNS, type SemanticConfig, type SemanticQuery, type SemanticRow } from "./retrieve";

/** When and how wide the fast path runs (core/config's `fastPath`). */
export interface FastPathConfig {
  /** Users with fewer comparable memories than this get the exact statement (it is faster there). */
  readonly minMemories: number;
  /** The nearest memories taken as candidates. */
  readonly vectorCandidates: number;
  /** The best BM25 matches taken as candidates. */
  readonly textCandidates: number;
}

/** One user's BM25 corpus for one embedder (memory_corpus_stats). */
export interface CorpusStats {
  memories: number;
  totalLength: number;
  zeroVectors: number;
}

export async function corpusStats(db: Db, userId: string, embeddingModel: string): Promise<CorpusStats> {
  const [row] = await selectRows<{ memories: number; total_length: number; zero_vectors: number }>(
    db,
    sql`SELECT memories, total_length::float8 AS total_length, zero_vectors FROM memory_corpus_stats
        WHERE user_id = ${userId}::uuid AND embedding_model = ${embeddingModel}`,
  );
  return { memories: row?.memories ?? 0, totalLength: row?.total_length ?? 0, zeroVectors: row?.zero_vectors ?? 0 };
}

/**
 * Whether the fast path applies: the configuration has one, the query names its embedder, the user
 * has at least `minMemories` comparable memories and none stored as the zero vector (the exact
 * statement leaves those out by their NaN similarity; the fast path's text matches read no vector).
 */
export function fastPathApplies(config: SemanticConfig, embeddingModel: string | undefined, stats: CorpusStats) {
  const fast = config.fastPath;
  return (
    fast !== undefined &&
    fast !== null &&
    embeddingModel !== undefined &&
    stats.zeroVectors === 0 &&
    stats.memories >= fast.minMemories
  );
}

/** The fast statement's rows (as the exact statement's) and whether its top was certified. */
export async function retrieveFastRows(
  db: Db,
  query: SemanticQuery & { embeddingModel: string },
  fast: FastPathConfig,
): Promise<{ rows: SemanticRow[]; certified: boolean }> {
  const { userId, now, config, embeddingModel } = query;
  const vector = vectorLiteral(query.embedding);
  const at = now.toISOString();
  const listed = Math.max(config.semanticLimit, config.traceCandidateLimit);
  const nearMisses = Math.max(0, config.nearMissLimit ?? 0);
  const { weights, fusion } = config;
  const kv = fast.vectorCandidates;
  const kt = fast.textCandidates;
  const comparable = sql`user_id = ${userId}::uuid AND status = 'active' AND embedding_model = ${embeddingModel}
                         AND embedding IS NOT NULL`;
  const bypass = fusion?.textBypassesThreshold === true;
  const admitted = bypass
    ? sql`(similarity >= ${config.similarityThreshold}::float8 OR text_rank IS NOT NULL)`
    : sql`similarity >= ${config.similarityThreshold}::float8`;
  const score = sql`${weights.similarity}::float8 * relevance
                 + ${weights.importance}::float8 * importance
                 + ${weights.recency}::float8 * recency`;
  /** The most a memory outside every candidate set could weigh with importance and recency at 1. */
  const rest = sql`${weights.importance}::float8 * 1 + ${weights.recency}::float8 * 1`;

  let text: SQL;
  let relevance: SQL;
  let outsideBound: SQL;
  if (fusion) {
    const { rrfK: k, vectorWeight: wv, textWeight: wt, bm25K1: k1, bm25B: b } = fusion;
    const norm = sql`((${wv}::float8 + ${wt}::float8) / (${k}::float8 + 1))`;
    text = sql`
      corpus AS (
        SELECT memories::float8 AS n, total_length::float8 / NULLIF(memories, 0)::float8 AS avg_len
        FROM memory_corpus_stats WHERE user_id = ${userId}::uuid AND embedding_model = ${embeddingModel}
      ),
      query_terms AS (SELECT DISTINCT lexeme FROM unnest(to_tsvector('english', ${query.text ?? ""}))),
      -- The message's lexemes as an OR query, quoted as tsquery input wants; none: NULL, no match.
      text_query AS (
        SELECT string_agg('''' || replace(replace(lexeme, '\\', '\\\\'), '''', '''''') || '''', ' | ')::tsquery AS q
        FROM query_terms
      ),
      matched AS MATERIALIZED (
        SELECT id, search_vector, search_length FROM memories
        WHERE ${comparable} AND search_vector @@ (SELECT q FROM text_query)
      ),
      terms AS (
        SELECT mt.id, t.lexeme, coalesce(cardinality(t.positions), 1)::float8 AS tf, mt.search_length::float8 AS len
        FROM matched mt CROSS JOIN LATERAL unnest(mt.search_vector) AS t
        WHERE t.lexeme IN (SELECT lexeme FROM query_terms)
      ),
      df AS (SELECT lexeme, count(*)::float8 AS df FROM terms GROUP BY lexeme),
      bm25 AS (
        SELECT m.id,
               sum(ln(1 + (c.n - d.df + 0.5) / (d.df + 0.5)) * m.tf * (${k1}::float8 + 1)
                   / (m.tf + ${k1}::float8 * (1 - ${b}::float8 + ${b}::float8 * m.len / c.avg_len))
                   ORDER BY m.lexeme COLLATE "C") AS text_score
        FROM terms m JOIN df d ON d.lexeme = m.lexeme CROSS JOIN corpus c
        GROUP BY m.id
      ),
      text_ranked AS (
        SELECT id, text_score, row_number() OVER (ORDER BY text_score DESC, id)::int AS text_rank FROM bm25
      ),
      text_edge AS (SELECT count(*)::int AS matches FROM text_ranked),
      candidates AS (
        SELECT v.id, v.similarity, v.vector_rank, t.text_rank, t.text_score
        FROM vec v LEFT JOIN text_ranked t ON t.id = v.id
        UNION ALL
        SELECT t.id, NULL::float8, NULL::int, t.text_rank, t.text_score
        FROM text_ranked t
        WHERE t.text_rank <= ${kt}::int AND NOT EXISTS (SELECT 1 FROM vec v WHERE v.id = t.id)
      ),`;
    // Outside the nearest candidates the vector rank is at least outside_rank: an upper bound there.
    relevance = sql`(${wv}::float8 / (${k}::float8 + coalesce(s.vector_rank, e.outside_rank))
                     + coalesce(${wt}::float8 / (${k}::float8 + s.text_rank), 0)) / ${norm}`;
    // A memory in no candidate set: vector rank ≥ outside_rank, text rank > kt (if it matches at all).
    const outsideAdmissible = bypass
      ? sql`(e.min_sim >= ${config.similarityThreshold}::float8 OR t.matches > ${kt}::int)`
      : sql`e.min_sim >= ${config.similarityThreshold}::float8`;
    outsideBound = sql`CASE WHEN ${outsideAdmissible}
      THEN ${weights.similarity}::float8
           * (${wv}::float8 / (${k}::float8 + e.outside_rank)
              + CASE WHEN t.matches > ${kt}::int THEN ${wt}::float8 / (${k}::float8 + ${kt}::int + 1) ELSE 0 END)
           / ${norm} + ${rest} END`;
  } else {
    text = sql`
      text_edge AS (SELECT 0 AS matches),
      candidates AS (
        SELECT id, similarity, vector_rank, NULL::int AS text_rank, NULL::float8 AS text_score FROM vec
      ),`;
    relevance = sql`s.similarity`;
    outsideBound = sql`CASE WHEN e.min_sim >= ${config.similarityThreshold}::float8
      THEN ${weights.similarity}::float8 * e.min_sim + ${rest} END`;
  }

  const waiting = sql`SELECT count(*)::int AS n FROM memories
            WHERE user_id = ${userId}::uuid AND status = 'active' AND ${awaitsEmbedder(embeddingModel)}`;

  const rows = await selectRows<SemanticRow & { certified: boolean }>(
    db,
    sql`
      WITH nearest AS MATERIALIZED (
        -- OFFSET 0 keeps the HNSW index out: it would order approximately; this is an exact top kv.
        SELECT id, distance FROM (
          SELECT id, embedding <=> ${vector}::vector AS distance FROM memories WHERE ${comparable} OFFSET 0
        ) d
        ORDER BY distance
        LIMIT ${kv}::int
      ),
      vec AS (
        SELECT id, 1 - distance AS similarity,
               row_number() OVER (ORDER BY 1 - distance DESC, id)::int AS vector_rank
        FROM nearest
      ),
      -- The least similarity among the nearest, and the best vector rank a memory outside them could have.
      edge AS (
        SELECT count(*)::int AS n, min(similarity) AS min_sim,
               1 + count(*) FILTER (WHERE similarity > (SELECT min(similarity) FROM vec))::int AS outside_rank
        FROM vec
      ),
      ${text}
      scored AS (
        SELECT c.id, c.vector_rank, c.text_rank, c.text_score,
               coalesce(c.similarity, 1 - (m.embedding <=> ${vector}::vector)) AS similarity,
               m.importance::float8 AS importance,
               1 - LEAST(1, GREATEST(0, floor(extract(epoch FROM (${at}::timestamptz - m.updated_at)) / 86400))::float8
                            / ${config.recencyWindowDays}::float8) AS recency
        FROM candidates c JOIN memories m ON m.id = c.id
      ),
      judged AS (
        SELECT s.id, s.similarity, s.importance, s.recency, s.vector_rank, s.text_rank, s.text_score,
               ${relevance} AS relevance
        FROM scored s CROSS JOIN edge e
      ),
      final AS (
        SELECT *, ${score} AS score, ${admitted} AS admitted FROM judged
      ),
      ranked AS (
        SELECT id, similarity, importance, recency, relevance, vector_rank, text_rank, text_score, score,
               row_number() OVER (ORDER BY score DESC, id)::int AS rank,
               count(*) OVER ()::int AS above_threshold
        FROM final
        WHERE admitted AND vector_rank IS NOT NULL
        ORDER BY rank
        LIMIT ${listed}::int
      ),
      below AS (
        SELECT id, similarity, importance, recency, relevance, vector_rank, text_rank, text_score, score,
               row_number() OVER (ORDER BY similarity DESC, id)::int AS rank
        FROM final
        WHERE NOT admitted AND vector_rank IS NOT NULL
        ORDER BY similarity DESC, id
        LIMIT ${nearMisses}::int
      ),
      -- The most any memory not ranked here could score: text candidates outside the nearest, and the rest.
      bound AS (
        SELECT greatest((SELECT max(score) FROM final WHERE admitted AND vector_rank IS NULL), ${outsideBound}) AS b
        FROM edge e CROSS JOIN text_edge t
      ),
      -- The certificate: nothing outside the selected rows can reach the last selected score.
      certificate AS (
        SELECT e.n < ${kv}::int
               OR coalesce(
                    (SELECT coalesce(bool_and(similarity > e.min_sim), true) FROM ranked WHERE rank <= ${config.semanticLimit}::int)
                    AND (bd.b IS NULL OR (SELECT score FROM ranked WHERE rank = ${config.semanticLimit}::int) > bd.b),
                    false) AS certified
        FROM edge e CROSS JOIN bound bd
      ),
      waiting AS (${waiting}),
      ${LISTED}
      SELECT ${LISTED_COLUMNS},
             w.n AS waiting, c.certified
      FROM waiting w CROSS JOIN certificate c
      LEFT JOIN (listed r JOIN memories m ON m.id = r.id) ON true
      ORDER BY r.below, r.rank`,
  );
  return { rows, certified: rows[0]?.certified === true };
}
