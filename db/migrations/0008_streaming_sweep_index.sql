-- The sweep for answers a stopped server left `streaming` (db/queries/interrupted-answers.ts), every
-- minute on every server: a partial index holds only those rows, so the sweep reads a few index
-- entries instead of scanning every message.
CREATE INDEX "messages_streaming_idx" ON "messages" USING btree ("updated_at") WHERE "messages"."status" = 'streaming';
