ALTER TYPE "public"."gmail_operation_status" ADD VALUE 'approved' BEFORE 'succeeded';--> statement-breakpoint
CREATE TABLE "demo_mail_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"from_address" text NOT NULL,
	"to_addresses" text[] DEFAULT '{}'::text[] NOT NULL,
	"cc_addresses" text[] DEFAULT '{}'::text[] NOT NULL,
	"bcc_addresses" text[] DEFAULT '{}'::text[] NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"labels" text[] DEFAULT '{}'::text[] NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "demo_mailboxes" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "gmail_operations" ADD COLUMN "mailbox" text DEFAULT 'gmail' NOT NULL;--> statement-breakpoint
ALTER TABLE "gmail_operations" ADD COLUMN "latency_ms" integer;--> statement-breakpoint
ALTER TABLE "demo_mail_messages" ADD CONSTRAINT "demo_mail_messages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "demo_mailboxes" ADD CONSTRAINT "demo_mailboxes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "demo_mail_messages_user_idx" ON "demo_mail_messages" USING btree ("user_id","sent_at");