-- The approximate path of retrieval for large accounts (issue 28, docs/performance.md): an HNSW
-- index over the stored half-precision vectors, and a narrow index the path counts and sums from.
--
-- Postgres only. Migrations run on both databases (db/client.ts: migratePostgres on Postgres,
-- drizzle's migrator on PGlite), so the statements run only when the server is not PGlite, which
-- says so in version() ("PostgreSQL 18.6 (PGlite 0.5.14) on wasm32-unknown-emscripten …"): an
-- HNSW insert costs PGlite ~0.5 s, and the embedded default serves one person, far below the
-- crossover — there retrieval stays exact (retrieve.ts asks whether the index exists, once per
-- database). On Postgres the index costs ~5.5 ms per insert at 110k rows (measured).
--
-- m = 16, ef_construction = 64: pgvector's defaults, with which recall was measured
-- (docs/performance.md). The scan's settings (ef_search, iterative scan) are core/config's
-- approximateRetrievalConfig, set per transaction by the statement.
--
-- memories_user_model_idx: the user's comparable memories counted (the crossover), and BM25's N
-- and average length summed, by an index-only scan instead of a pass over the 3 KB rows.
--
-- Built inside the migration's transaction, which blocks writes to memories while it builds. A
-- large existing table can have both built beforehand with CREATE INDEX CONCURRENTLY under the
-- same names and definitions: IF NOT EXISTS then leaves them alone.
DO $$
BEGIN
  IF version() NOT LIKE '%PGlite%' THEN
    CREATE INDEX IF NOT EXISTS "memories_embedding_hnsw_idx" ON "memories"
      USING hnsw ("embedding" halfvec_cosine_ops) WITH (m = 16, ef_construction = 64);
    CREATE INDEX IF NOT EXISTS "memories_user_model_idx" ON "memories" ("user_id", "embedding_model")
      INCLUDE ("search_length") WHERE "status" = 'active';
  END IF;
END
$$;
