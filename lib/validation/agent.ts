import { z } from "zod";
import { text } from "./strings";

/** A recipient as a mail client writes one: "maya@example.com" or "Maya Chen <maya@example.com>". */
export const recipient = text({ max: 320 }).refine(
  (value) => /^(?:[^<>@\s][^<>@]*<)?[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+>?$/.test(value),
  "Must be an email address, optionally with a name (Name <address>)",
);

const recipients = z.array(recipient).max(50);

/** An RFC 5322 msg-id as a reply names it: "<left@right>", no spaces (nothing to inject in a header). */
const msgId = z
  .string()
  .max(998)
  .regex(/^<[^<>\s]+>$/, "Must be a Message-ID: <…@…>");

export const draftThreadSchema = z.strictObject({
  threadId: z.string().regex(/^[A-Za-z0-9_-]{1,200}$/, "Must be a thread id"),
  inReplyTo: msgId.nullable(),
  references: z.array(msgId).max(100),
});

export const draftSchema = z.strictObject({
  to: recipients.min(1, { error: "A message needs at least one recipient" }),
  cc: recipients.default([]),
  bcc: recipients.default([]),
  subject: text({ min: 0, max: 500 }),
  body: text({ min: 0, max: 20_000, multiline: true }),
  thread: draftThreadSchema.optional(),
});

/** PATCH /api/agent/sends/:id (edit) and POST …/approve: the draft as the user sees it. */
export const sendDraftBody = z.strictObject({ draft: draftSchema });
