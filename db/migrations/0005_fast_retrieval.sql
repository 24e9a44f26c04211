-- The fast retrieval path (lib/memory/retrieval/fast.ts, docs/performance.md): each memory's BM25
-- length stored at write time, and per user and embedder the BM25 corpus statistics (how many
-- memories the semantic query compares, and their total length) kept by statement triggers.
CREATE OR REPLACE FUNCTION tsvector_bm25_length(v tsvector) RETURNS integer
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT coalesce(sum(coalesce(cardinality(t.positions), 1)), 0)::int FROM unnest(v) AS t $$;
--> statement-breakpoint
CREATE TABLE "memory_corpus_stats" (
	"user_id" uuid NOT NULL,
	"embedding_model" text NOT NULL,
	"memories" integer NOT NULL,
	"total_length" bigint NOT NULL,
	"zero_vectors" integer NOT NULL,
	CONSTRAINT "memory_corpus_stats_user_id_embedding_model_pk" PRIMARY KEY("user_id","embedding_model")
);
--> statement-breakpoint
ALTER TABLE "memories" ADD COLUMN "search_length" integer GENERATED ALWAYS AS (tsvector_bm25_length(to_tsvector('english', coalesce("memories"."title", '') || ' ' || "memories"."content"))) STORED;
--> statement-breakpoint
-- A memory is in its user's corpus when it is active and embedded (by embedding_model); the
-- semantic query compares it unless it is the zero vector (its similarity would be NaN).
CREATE OR REPLACE FUNCTION memory_in_corpus(m memories) RETURNS boolean
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT m.status = 'active' AND m.embedding_model IS NOT NULL AND m.embedding IS NOT NULL $$;
--> statement-breakpoint
-- What a memory in a corpus adds to its statistics: (1, its length, 0), or (0, 0, 1) for the zero vector.
CREATE OR REPLACE FUNCTION memory_corpus_entry(m memories, OUT n integer, OUT len bigint, OUT z integer)
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT CASE WHEN x.nonzero THEN 1 ELSE 0 END, CASE WHEN x.nonzero THEN m.search_length ELSE 0 END::bigint,
               CASE WHEN x.nonzero THEN 0 ELSE 1 END
        FROM (SELECT vector_norm(m.embedding) > 0 AS nonzero) AS x $$;
--> statement-breakpoint
-- One statement trigger per event (transition tables allow no more): the statement's rows leaving
-- a corpus count −1, those entering +1, summed per key and applied in key order, so concurrent
-- statements lock shared rows in the same order; a row whose count falls to 0 is deleted.
CREATE OR REPLACE FUNCTION memory_corpus_stats_apply() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO memory_corpus_stats AS s (user_id, embedding_model, memories, total_length, zero_vectors)
    SELECT user_id, embedding_model, sum(n)::int, sum(len)::bigint, sum(z)::int
    FROM (SELECT user_id, embedding_model, c.n, c.len, c.z FROM new_rows m, memory_corpus_entry(m) c WHERE memory_in_corpus(m)) AS d
    GROUP BY user_id, embedding_model
    HAVING sum(n) <> 0 OR sum(len) <> 0 OR sum(z) <> 0
    ORDER BY user_id, embedding_model
    ON CONFLICT (user_id, embedding_model) DO UPDATE
      SET memories = s.memories + excluded.memories, total_length = s.total_length + excluded.total_length,
          zero_vectors = s.zero_vectors + excluded.zero_vectors;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO memory_corpus_stats AS s (user_id, embedding_model, memories, total_length, zero_vectors)
    SELECT user_id, embedding_model, sum(n)::int, sum(len)::bigint, sum(z)::int
    FROM (SELECT user_id, embedding_model, -c.n AS n, -c.len AS len, -c.z AS z FROM old_rows m, memory_corpus_entry(m) c WHERE memory_in_corpus(m)) AS d
    GROUP BY user_id, embedding_model
    HAVING sum(n) <> 0 OR sum(len) <> 0 OR sum(z) <> 0
    ORDER BY user_id, embedding_model
    ON CONFLICT (user_id, embedding_model) DO UPDATE
      SET memories = s.memories + excluded.memories, total_length = s.total_length + excluded.total_length,
          zero_vectors = s.zero_vectors + excluded.zero_vectors;
  ELSE
    INSERT INTO memory_corpus_stats AS s (user_id, embedding_model, memories, total_length, zero_vectors)
    SELECT user_id, embedding_model, sum(n)::int, sum(len)::bigint, sum(z)::int
    FROM (SELECT user_id, embedding_model, c.n, c.len, c.z FROM new_rows m, memory_corpus_entry(m) c WHERE memory_in_corpus(m)
          UNION ALL SELECT user_id, embedding_model, -c.n AS n, -c.len AS len, -c.z AS z FROM old_rows m, memory_corpus_entry(m) c WHERE memory_in_corpus(m)) AS d
    GROUP BY user_id, embedding_model
    HAVING sum(n) <> 0 OR sum(len) <> 0 OR sum(z) <> 0
    ORDER BY user_id, embedding_model
    ON CONFLICT (user_id, embedding_model) DO UPDATE
      SET memories = s.memories + excluded.memories, total_length = s.total_length + excluded.total_length,
          zero_vectors = s.zero_vectors + excluded.zero_vectors;
  END IF;
  DELETE FROM memory_corpus_stats WHERE memories = 0 AND total_length = 0 AND zero_vectors = 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER memory_corpus_stats_insert AFTER INSERT ON memories
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION memory_corpus_stats_apply();
--> statement-breakpoint
CREATE TRIGGER memory_corpus_stats_update AFTER UPDATE ON memories
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION memory_corpus_stats_apply();
--> statement-breakpoint
CREATE TRIGGER memory_corpus_stats_delete AFTER DELETE ON memories
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION memory_corpus_stats_apply();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION memory_corpus_stats_truncate() RETURNS trigger
  LANGUAGE plpgsql
  AS $$ BEGIN DELETE FROM memory_corpus_stats; RETURN NULL; END $$;
--> statement-breakpoint
CREATE TRIGGER memory_corpus_stats_truncate AFTER TRUNCATE ON memories
  FOR EACH STATEMENT EXECUTE FUNCTION memory_corpus_stats_truncate();
--> statement-breakpoint
-- Backfill: the memories already stored (the ALTER above computed their search_length).
INSERT INTO memory_corpus_stats (user_id, embedding_model, memories, total_length, zero_vectors)
  SELECT user_id, embedding_model, sum(c.n)::int, sum(c.len)::bigint, sum(c.z)::int
  FROM memories m, memory_corpus_entry(m) c WHERE memory_in_corpus(m)
  GROUP BY user_id, embedding_model;
