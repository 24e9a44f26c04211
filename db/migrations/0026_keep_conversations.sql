ALTER TABLE "imports" ADD COLUMN "keep_conversations" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "imports" ADD COLUMN "summary" jsonb;--> statement-breakpoint
ALTER TABLE "memories" ADD COLUMN "imported_source" jsonb;--> statement-breakpoint
ALTER TABLE "memory_events" ADD COLUMN "import_id" uuid;--> statement-breakpoint
ALTER TABLE "memory_events" ADD CONSTRAINT "memory_events_import_id_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."imports"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "memory_events_import_idx" ON "memory_events" USING btree ("import_id") WHERE "memory_events"."import_id" IS NOT NULL;