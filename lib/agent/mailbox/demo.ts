/**
 * The local demo mailbox: a real Mailbox over the project's database (demo_mail_messages), made
 * for one user, seeded on first use (demo-inbox.ts). Sending files the message under SENT and
 * delivers nothing: the UI says plainly that this is the demo mailbox.
 */
import { DAY_MS } from "@/core/calendar";
import type { Db } from "@/db/client";
import {
  type DemoMailRow,
  ensureDemoMailbox,
  getDemoMail,
  insertDemoMail,
  listDemoLabels,
  searchDemoMail,
  updateDemoLabels,
} from "@/db/queries/demo-mail";
import { DEMO_OWN_ADDRESS, demoInbox } from "./demo-inbox";
import { parseMailQuery } from "./query";
import {
  type Draft,
  type Email,
  type EmailSummary,
  type Mailbox,
  MailboxError,
  type MailLabel,
  snippetOf,
} from "./types";

const SYSTEM_LABELS = ["INBOX", "SENT", "DRAFT", "UNREAD", "STARRED", "IMPORTANT"];

function summary(row: DemoMailRow): EmailSummary {
  return {
    id: row.id,
    from: row.fromAddress,
    to: row.toAddresses,
    subject: row.subject,
    snippet: snippetOf(row.body),
    date: row.sentAt.toISOString(),
    labels: row.labels,
    unread: row.labels.includes("UNREAD"),
  };
}

export function demoMailbox(db: Db, userId: string, now: () => Date = () => new Date()): Mailbox {
  let ready: Promise<unknown> | undefined;
  const open = () => {
    ready ??= ensureDemoMailbox(db, { userId, seed: () => demoInbox(now()) });
    return ready;
  };
  const file = async (draft: Draft, labels: string[]) => {
    await open();
    return insertDemoMail(db, {
      userId,
      message: {
        fromAddress: DEMO_OWN_ADDRESS,
        toAddresses: draft.to,
        ccAddresses: draft.cc,
        bccAddresses: draft.bcc,
        subject: draft.subject,
        body: draft.body,
        labels,
        sentAt: now(),
      },
    });
  };

  return {
    kind: "demo",
    description: "Demo mailbox",
    async search(query, max) {
      await open();
      const filter = parseMailQuery(query);
      const newerThan =
        filter.newerThanDays === null ? null : new Date(now().getTime() - filter.newerThanDays * DAY_MS);
      const rows = await searchDemoMail(db, { userId, filter: { ...filter, newerThan }, max });
      return rows.map(summary);
    },
    async read(id): Promise<Email> {
      await open();
      const row = await getDemoMail(db, { userId, id });
      if (!row) throw new MailboxError("not_found", id);
      return { ...summary(row), cc: row.ccAddresses, body: row.body };
    },
    async listLabels(): Promise<MailLabel[]> {
      await open();
      const used = await listDemoLabels(db, { userId });
      const user = used.filter((label) => !SYSTEM_LABELS.includes(label));
      return [
        ...SYSTEM_LABELS.map((name) => ({ id: name, name, type: "system" as const })),
        ...user.map((name) => ({ id: name, name, type: "user" as const })),
      ];
    },
    async createDraft(draft) {
      const row = await file(draft, ["DRAFT"]);
      return { draftId: row.id };
    },
    async modifyLabels(id, add, remove) {
      await open();
      const labels = await updateDemoLabels(db, { userId, id, add, remove });
      if (!labels) throw new MailboxError("not_found", id);
      return { id, labels };
    },
    async send(draft) {
      const row = await file(draft, ["SENT"]);
      return { messageId: row.id };
    },
  };
}
