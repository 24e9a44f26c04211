CREATE TABLE "mcp_calls" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"token_id" uuid NOT NULL,
	"tool" text NOT NULL,
	"arguments" jsonb NOT NULL,
	"result" text NOT NULL,
	"is_error" boolean NOT NULL,
	"trace" jsonb,
	"memory_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"returned_memory_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"latency_ms" real NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "memories" ADD COLUMN "source_access_token_id" uuid;--> statement-breakpoint
ALTER TABLE "mcp_calls" ADD CONSTRAINT "mcp_calls_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mcp_calls" ADD CONSTRAINT "mcp_calls_token_id_access_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."access_tokens"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mcp_calls_user_created_idx" ON "mcp_calls" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "mcp_calls_memory_ids_idx" ON "mcp_calls" USING gin ("memory_ids");--> statement-breakpoint
CREATE INDEX "mcp_calls_returned_memory_ids_idx" ON "mcp_calls" USING gin ("returned_memory_ids");--> statement-breakpoint
ALTER TABLE "memories" ADD CONSTRAINT "memories_source_access_token_id_access_tokens_id_fk" FOREIGN KEY ("source_access_token_id") REFERENCES "public"."access_tokens"("id") ON DELETE set null ON UPDATE no action;