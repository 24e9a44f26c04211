-- Retrieval's candidate pass (issue 40, docs/performance.md): each memory's vector as 1,536 sign
-- bits (192 bytes), and one btree that covers a user's active memories with their codes, so the
-- pass ranks every one of them by Hamming distance from the index alone, never reading the 3 KB
-- rows, and returns K candidates whenever the user has K: complete by construction, unlike the
-- filtered HNSW walk it replaces. The same index serves the comparable count and BM25's lengths
-- (memories_user_model_idx did, on Postgres only); this one is built on both databases.
--
-- The HNSW index goes: no path uses it, and it cost ~5.5 ms per insert at 110k rows (measured).
-- Adding the stored column rewrites memories, under the migration's lock.
ALTER TABLE "memories" ADD COLUMN "embedding_code" bit(1536) GENERATED ALWAYS AS (binary_quantize("memories"."embedding")::bit(1536)) STORED;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "memories_user_code_idx" ON "memories" ("user_id", "embedding_model")
  INCLUDE ("search_length", "embedding_code", "id") WHERE "status" = 'active';--> statement-breakpoint
DROP INDEX IF EXISTS "memories_user_model_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "memories_embedding_hnsw_idx";
