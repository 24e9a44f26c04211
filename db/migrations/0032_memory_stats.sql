CREATE TABLE "memory_stats" (
	"user_id" uuid NOT NULL,
	"vector_space" text NOT NULL,
	"comparable" integer NOT NULL,
	"comparable_length" bigint NOT NULL,
	"with_text" integer NOT NULL,
	CONSTRAINT "memory_stats_user_id_vector_space_pk" PRIMARY KEY("user_id","vector_space")
);
--> statement-breakpoint
-- memory_stats (db/schema.ts): per user and vector space, the counts retrieval read by counting a user's memories on
-- every turn above a few thousand of them (~30 ms at 100k: docs/performance.md). Statement triggers keep them in
-- the transaction of each write, so every write path keeps them right and a statement reads counts and memories
-- from one snapshot.
--
-- What one active memory adds: its vector space ('' without a vector), 1 and its BM25 length if the semantic
-- statement can compare it (a non-zero vector: the zero vector's distance is NaN), and 1 if it has text (only
-- those wait for re-embedding: db/queries/reembed.ts awaitsEmbedder).
CREATE FUNCTION memory_stats_entry(m memories, OUT vector_space text, OUT comparable integer,
                                   OUT comparable_length bigint, OUT with_text integer)
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT s.space, c.n, c.n * m.search_length::bigint,
               CASE WHEN (coalesce(m.title, '') || m.content) ~ '[^[:space:]]' THEN 1 ELSE 0 END
        FROM (SELECT CASE WHEN m.embedding IS NULL OR m.embedding_model IS NULL THEN '' ELSE m.embedding_model END AS space) s,
             LATERAL (SELECT CASE WHEN s.space <> '' AND l2_norm(m.embedding) > 0 THEN 1 ELSE 0 END AS n) c $$;
--> statement-breakpoint
-- One statement trigger per event (transition tables allow no more): rows leaving count −1, rows entering +1,
-- summed per key. Inserts and updates upsert in key order, so concurrent statements lock shared rows in the same
-- order; a delete only decrements rows its memories were counted in, with an UPDATE whose join sets the order (one
-- user's keys, in practice). Then a touched user's rows whose counts are all 0 are deleted.
CREATE FUNCTION memory_stats_apply() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO memory_stats AS s (user_id, vector_space, comparable, comparable_length, with_text)
    SELECT m.user_id, e.vector_space, sum(e.comparable)::int, sum(e.comparable_length)::bigint, sum(e.with_text)::int
    FROM new_rows m, memory_stats_entry(m) e
    WHERE m.status = 'active'
    GROUP BY m.user_id, e.vector_space
    HAVING sum(e.comparable) <> 0 OR sum(e.with_text) <> 0
    ORDER BY m.user_id, e.vector_space
    ON CONFLICT (user_id, vector_space) DO UPDATE
      SET comparable = s.comparable + excluded.comparable,
          comparable_length = s.comparable_length + excluded.comparable_length,
          with_text = s.with_text + excluded.with_text;
    RETURN NULL;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    INSERT INTO memory_stats AS s (user_id, vector_space, comparable, comparable_length, with_text)
    SELECT d.user_id, d.vector_space, sum(d.sign * d.comparable)::int, sum(d.sign * d.comparable_length)::bigint,
           sum(d.sign * d.with_text)::int
    FROM (SELECT m.user_id, 1 AS sign, e.* FROM new_rows m, memory_stats_entry(m) e WHERE m.status = 'active'
          UNION ALL
          SELECT m.user_id, -1 AS sign, e.* FROM old_rows m, memory_stats_entry(m) e WHERE m.status = 'active') d
    GROUP BY d.user_id, d.vector_space
    HAVING sum(d.sign * d.comparable) <> 0 OR sum(d.sign * d.comparable_length) <> 0 OR sum(d.sign * d.with_text) <> 0
    ORDER BY d.user_id, d.vector_space
    ON CONFLICT (user_id, vector_space) DO UPDATE
      SET comparable = s.comparable + excluded.comparable,
          comparable_length = s.comparable_length + excluded.comparable_length,
          with_text = s.with_text + excluded.with_text;
  ELSE
    UPDATE memory_stats s
      SET comparable = s.comparable - d.comparable, comparable_length = s.comparable_length - d.comparable_length,
          with_text = s.with_text - d.with_text
      FROM (SELECT m.user_id, e.vector_space, sum(e.comparable)::int AS comparable,
                   sum(e.comparable_length)::bigint AS comparable_length, sum(e.with_text)::int AS with_text
            FROM old_rows m, memory_stats_entry(m) e
            WHERE m.status = 'active'
            GROUP BY m.user_id, e.vector_space
            ORDER BY m.user_id, e.vector_space) d
      WHERE s.user_id = d.user_id AND s.vector_space = d.vector_space;
  END IF;
  DELETE FROM memory_stats s
    WHERE s.user_id IN (SELECT user_id FROM old_rows) AND s.comparable = 0 AND s.with_text = 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER memory_stats_insert AFTER INSERT ON memories
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION memory_stats_apply();
--> statement-breakpoint
CREATE TRIGGER memory_stats_update AFTER UPDATE ON memories
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION memory_stats_apply();
--> statement-breakpoint
CREATE TRIGGER memory_stats_delete AFTER DELETE ON memories
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION memory_stats_apply();
--> statement-breakpoint
CREATE FUNCTION memory_stats_truncate() RETURNS trigger
  LANGUAGE plpgsql
  AS $$ BEGIN DELETE FROM memory_stats; RETURN NULL; END $$;
--> statement-breakpoint
CREATE TRIGGER memory_stats_truncate AFTER TRUNCATE ON memories
  FOR EACH STATEMENT EXECUTE FUNCTION memory_stats_truncate();
--> statement-breakpoint
-- The memories stored before this migration.
INSERT INTO memory_stats (user_id, vector_space, comparable, comparable_length, with_text)
  SELECT m.user_id, e.vector_space, sum(e.comparable)::int, sum(e.comparable_length)::bigint, sum(e.with_text)::int
  FROM memories m, memory_stats_entry(m) e
  WHERE m.status = 'active'
  GROUP BY m.user_id, e.vector_space
  HAVING sum(e.comparable) <> 0 OR sum(e.with_text) <> 0;
