-- Access counts move out of `memories` into their own narrow table. A memory's row holds its 6 KB
-- vector in line (0006), so the chat turn's access count (lib/memory/retrieval/access.ts: every memory
-- that went into the prompt, each turn) rewrote whole rows: a new 6 KB version of each, and new
-- entries in every index of the table, the HNSW and GIN ones included (never a HOT update: two
-- versions do not fit a page). Here a count is a few bytes, updated in place. fillfactor leaves room on
-- each page for those in-place (HOT) updates. A memory with no row was never read (count 0).
CREATE TABLE "memory_usage" (
	"memory_id" uuid PRIMARY KEY NOT NULL,
	"access_count" integer NOT NULL,
	"last_accessed_at" timestamp with time zone NOT NULL
) WITH (fillfactor = 80);
--> statement-breakpoint
ALTER TABLE "memory_usage" ADD CONSTRAINT "memory_usage_memory_id_memories_id_fk" FOREIGN KEY ("memory_id") REFERENCES "public"."memories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
INSERT INTO "memory_usage" ("memory_id", "access_count", "last_accessed_at")
SELECT "id", "access_count", coalesce("last_accessed_at", "updated_at") FROM "memories"
WHERE "access_count" > 0 OR "last_accessed_at" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "memories" DROP COLUMN "access_count";--> statement-breakpoint
ALTER TABLE "memories" DROP COLUMN "last_accessed_at";
