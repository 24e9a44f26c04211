ALTER TABLE "accounts" ADD COLUMN "tokens_revoked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "demo_mail_messages" ADD COLUMN "thread_id" uuid DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
ALTER TABLE "demo_mail_messages" ADD COLUMN "message_id" text DEFAULT '<' || gen_random_uuid() || '@demo.lifeline.example.com>' NOT NULL;--> statement-breakpoint
ALTER TABLE "demo_mail_messages" ADD COLUMN "in_reply_to" text;--> statement-breakpoint
ALTER TABLE "demo_mail_messages" ADD COLUMN "references" text[] DEFAULT '{}'::text[] NOT NULL;