-- The retrieval statement's distance pass reads every comparable vector of the user
-- (lib/memory/retrieval/retrieve.ts, docs/performance.md). A 1536-d vector is a 6 KB value, which
-- Postgres stored out of line (TOAST: the heap tuple plus three chunks in another table, four
-- buffers per memory). Kept in the row instead: one page per memory.
--
-- toast_tuple_target 8160 (the most a page allows): a row is toasted only when it does not fit a
-- page, so a memory's vector, text and tsvector stay in its row. STORAGE MAIN: should a row not fit
-- (a very long content), its other values are compressed and moved out first, the vector last.
ALTER TABLE "memories" SET (toast_tuple_target = 8160);
--> statement-breakpoint
-- Backfill: a rewrite of the table (and its indexes) that stores every existing vector again,
-- under the target above; the values are unchanged (vector → real[] → vector is exact).
ALTER TABLE "memories" ALTER COLUMN "embedding" SET DATA TYPE vector(1536) USING "embedding"::real[]::vector(1536);
--> statement-breakpoint
-- After the rewrite: changing the column's type resets its storage to the type's own (EXTERNAL).
ALTER TABLE "memories" ALTER COLUMN "embedding" SET STORAGE MAIN;
