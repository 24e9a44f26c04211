ALTER TABLE "conversations" ADD COLUMN "current_message_id" uuid;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "parent_message_id" uuid;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_current_message_id_messages_id_fk" FOREIGN KEY ("current_message_id") REFERENCES "public"."messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_parent_message_id_messages_id_fk" FOREIGN KEY ("parent_message_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "messages_parent_idx" ON "messages" USING btree ("parent_message_id");--> statement-breakpoint
-- Hand-written (drizzle cannot express a data migration): every conversation made before versions
-- becomes one branch. Each message's parent is the message before it — in the transcript's order,
-- created_at then role, so a question precedes its answer written in the same statement — and the
-- conversation's current message is its last.
UPDATE "messages" AS m SET "parent_message_id" = ordered.previous
FROM (
  SELECT "id", lag("id") OVER (PARTITION BY "conversation_id" ORDER BY "created_at", "role") AS previous
  FROM "messages"
) AS ordered
WHERE m."id" = ordered."id" AND ordered.previous IS NOT NULL;--> statement-breakpoint
UPDATE "conversations" AS c SET "current_message_id" = (
  SELECT m."id" FROM "messages" AS m WHERE m."conversation_id" = c."id" ORDER BY m."created_at" DESC, m."role" DESC LIMIT 1
);
