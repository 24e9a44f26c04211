ALTER TABLE "mcp_calls" ALTER COLUMN "arguments" SET DATA TYPE text;--> statement-breakpoint
ALTER TABLE "mcp_calls" ALTER COLUMN "arguments" DROP NOT NULL;