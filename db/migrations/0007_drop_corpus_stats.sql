-- memory_corpus_stats (migration 0005) was kept for the certified fast path, which is gone: the one
-- retrieval statement takes BM25's N and average length from the memories it scores
-- (lib/memory/retrieval/retrieve.ts, docs/performance.md). Nothing reads the table, so its triggers
-- no longer run on every write of memories. memories.search_length and tsvector_bm25_length stay:
-- the statement reads them.
DROP TRIGGER IF EXISTS memory_corpus_stats_insert ON "memories";
--> statement-breakpoint
DROP TRIGGER IF EXISTS memory_corpus_stats_update ON "memories";
--> statement-breakpoint
DROP TRIGGER IF EXISTS memory_corpus_stats_delete ON "memories";
--> statement-breakpoint
DROP TRIGGER IF EXISTS memory_corpus_stats_truncate ON "memories";
--> statement-breakpoint
DROP FUNCTION IF EXISTS memory_corpus_stats_apply();
--> statement-breakpoint
DROP FUNCTION IF EXISTS memory_corpus_stats_truncate();
--> statement-breakpoint
DROP FUNCTION IF EXISTS memory_corpus_entry(memories);
--> statement-breakpoint
DROP FUNCTION IF EXISTS memory_in_corpus(memories);
--> statement-breakpoint
DROP TABLE "memory_corpus_stats";
