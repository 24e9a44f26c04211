ALTER TABLE "memories" ADD COLUMN "restored_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "memories" ADD COLUMN "restored_from_id" text;--> statement-breakpoint
ALTER TABLE "memories" ADD COLUMN "restored_content_hash" text;--> statement-breakpoint
CREATE UNIQUE INDEX "memories_user_restored_idx" ON "memories" USING btree ("user_id","restored_from_id","restored_content_hash") WHERE "memories"."restored_from_id" IS NOT NULL;