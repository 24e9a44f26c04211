-- Embeddings in half precision (issue 28, docs/performance.md): a halfvec(1536) is 3 KB instead of
-- 6 KB, so the retrieval statement's exact pass over the user's vectors reads half the pages. The
-- reference scorer (lib/memory/retrieval/score.ts) computes on the same half-rounded values.
--
-- The HNSW index goes: no statement uses it (retrieval scans the user's rows exactly), and every
-- insert paid for it. Its operator class was vector's, so it could not survive the type change anyway.
DROP INDEX IF EXISTS "memories_embedding_hnsw_idx";
--> statement-breakpoint
-- A stored vector with a component beyond half's range (±65504) cannot be cast, and one whose
-- components are all below half's normal range (6.1e-5) would lose most of its digits: both are
-- scaled to unit length first. Cosine similarity does not depend on the length, so every
-- similarity stays what it was (to half's rounding). New embeddings beyond the range are refused at
-- write time (db/queries/vectors.ts vectorProblem); zero vectors stay zero (never comparable).
UPDATE "memories" SET "embedding" = l2_normalize("embedding")
WHERE "embedding" IS NOT NULL
  AND (SELECT max(abs(x)) FROM unnest("embedding"::real[]) AS x) > 0
  AND (SELECT max(abs(x)) FROM unnest("embedding"::real[]) AS x) NOT BETWEEN 6.103515625e-05 AND 65504;
--> statement-breakpoint
ALTER TABLE "memories" ALTER COLUMN "embedding" SET DATA TYPE halfvec(1536) USING "embedding"::halfvec(1536);
--> statement-breakpoint
-- Changing the column's type resets its storage to the type's own (EXTERNAL): kept in the row (0006).
ALTER TABLE "memories" ALTER COLUMN "embedding" SET STORAGE MAIN;
