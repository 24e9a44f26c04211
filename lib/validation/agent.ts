/** The agent's drafts: what `send_email` records, what the approval card shows, edits and approves. */
import { z } from "zod";
import { text } from "./strings";

/** A recipient as a mail client writes one: "maya@example.com" or "Maya Chen <maya@example.com>". */
export const recipient = text({ max: 320 }).refine(
  (value) => /^(?:[^<>@\s][^<>@]*<)?[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+>?$/.test(value),
  "Must be an email address, optionally with a name (Name <address>)",
);

const recipients = z.array(recipient).max(50);

export const draftSchema = z.strictObject({
  to: recipients.min(1, { error: "A message needs at least one recipient" }),
  cc: recipients.default([]),
  bcc: recipients.default([]),
  subject: text({ min: 0, max: 500 }),
  body: text({ min: 0, max: 20_000, multiline: true }),
});

/** PATCH /api/agent/sends/:id (edit) and POST …/approve: the draft as the user sees it. */
export const sendDraftBody = z.strictObject({ draft: draftSchema });
