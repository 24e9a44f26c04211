CREATE TABLE "imports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"source" text NOT NULL,
	"file_name" text NOT NULL,
	"status" text DEFAULT 'receiving' NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "imported_from" text;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "source_id" text;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "import_id" uuid;--> statement-breakpoint
ALTER TABLE "memory_extractions" ADD COLUMN "import_id" uuid;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "source_id" text;--> statement-breakpoint
ALTER TABLE "imports" ADD CONSTRAINT "imports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "imports_user_created_idx" ON "imports" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "imports_status_idx" ON "imports" USING btree ("status");--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_import_id_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."imports"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memory_extractions" ADD CONSTRAINT "memory_extractions_import_id_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "conversations_user_source_idx" ON "conversations" USING btree ("user_id","imported_from","source_id") WHERE "conversations"."source_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "memory_extractions_import_idx" ON "memory_extractions" USING btree ("import_id","status") WHERE "memory_extractions"."import_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "messages_conversation_source_idx" ON "messages" USING btree ("conversation_id","source_id") WHERE "messages"."source_id" IS NOT NULL;