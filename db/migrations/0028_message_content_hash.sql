ALTER TABLE "messages" ADD COLUMN "content_hash" text;--> statement-breakpoint
CREATE INDEX "messages_user_content_hash_idx" ON "messages" USING btree ("user_id","content_hash") WHERE "messages"."content_hash" IS NOT NULL;--> statement-breakpoint
-- Messages imported before this migration: the hash of db/queries/content-hash.ts, computed here.
UPDATE "messages" AS m SET "content_hash" = encode(sha256(convert_to(
  m."role"::text || chr(10) || to_char(m."created_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || chr(10)
    || regexp_replace(regexp_replace(normalize(m."content", NFC), '[ \t\n\v\f\r]+', ' ', 'g'), '^ | $', '', 'g'),
  'UTF8')), 'hex')
FROM "conversations" AS c
WHERE c."id" = m."conversation_id" AND c."imported_from" IS NOT NULL;
