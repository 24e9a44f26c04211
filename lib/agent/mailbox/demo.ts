/** Sending delivers nothing; the UI says plainly this is the demo mailbox. Threads and labels behave as Gmail's. */
import { DAY_MS } from "@/core/calendar";
import type { Db } from "@/db/client";
import {
  type DemoMailRow,
  demoCorrespondents,
  ensureDemoMailbox,
  getDemoMail,
  getDemoThread,
  insertDemoMail,
  listDemoLabels,
  searchDemoMail,
  updateDemoLabels,
} from "@/db/queries/demo-mail";
import { DEMO_OWN_ADDRESS, demoInbox } from "./demo-inbox";
import { parseMailQuery } from "./query";
import { unseenAddresses } from "./recipients";
import { subjectsMatch } from "./threading";
import {
  type Draft,
  type DraftSummary,
  type Email,
  type EmailSummary,
  type Mailbox,
  MailboxError,
  type MailLabel,
  type SavedDraft,
  snippetOf,
  unknownLabelsError,
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

/** A draft is a message filed under DRAFT; its id is the message's (Gmail's draft ids differ, the demo's need not). */
function draftSummary(row: DemoMailRow): DraftSummary {
  return {
    id: row.id,
    messageId: row.id,
    to: row.toAddresses,
    subject: row.subject,
    snippet: snippetOf(row.body),
    date: row.sentAt.toISOString(),
  };
}

export function demoMailbox(db: Db, userId: string, now: () => Date = () => new Date()): Mailbox {
  let ready: Promise<unknown> | undefined;
  const open = () => {
    ready ??= ensureDemoMailbox(db, { userId, seed: () => demoInbox(now()) });
    return ready;
  };
  const threadOf = async (draft: Draft): Promise<string | undefined> => {
    if (!draft.thread?.inReplyTo) return undefined;
    const thread = await getDemoThread(db, { userId, threadId: draft.thread.threadId });
    const answers = thread.some((row) => row.messageId === draft.thread?.inReplyTo);
    const first = thread[0];
    return answers && first && subjectsMatch(draft.subject, first.subject) ? draft.thread.threadId : undefined;
  };
  const file = async (draft: Draft, labels: string[]) => {
    await open();
    const threadId = await threadOf(draft);
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
        ...(threadId ? { threadId } : {}),
        inReplyTo: draft.thread?.inReplyTo ?? null,
        references: draft.thread?.references ?? [],
      },
    });
  };
  const listLabels = async (): Promise<MailLabel[]> => {
    await open();
    const used = await listDemoLabels(db, { userId });
    const user = used.filter((label) => !SYSTEM_LABELS.includes(label));
    return [
      ...SYSTEM_LABELS.map((name) => ({ id: name, name, type: "system" as const })),
      ...user.map((name) => ({ id: name, name, type: "user" as const })),
    ];
  };
  const labelNames = async (names: string[]): Promise<string[]> => {
    if (names.length === 0) return [];
    const labels = await listLabels();
    const find = (name: string) => labels.find((l) => l.name.toLowerCase() === name.toLowerCase());
    const unknown = names.filter((name) => !find(name));
    if (unknown.length > 0) throw unknownLabelsError(unknown, labels);
    return names.map((name) => find(name)?.name ?? name);
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
      return {
        ...summary(row),
        cc: row.ccAddresses,
        body: row.body,
        threadId: row.threadId,
        messageId: row.messageId,
        inReplyTo: row.inReplyTo,
        references: row.references,
      };
    },
    listLabels,
    async createDraft(draft) {
      const row = await file(draft, ["DRAFT"]);
      return { draftId: row.id, threadId: row.threadId };
    },
    async listDrafts(max) {
      await open();
      const filter = { ...parseMailQuery("in:drafts"), newerThan: null };
      return (await searchDemoMail(db, { userId, filter, max })).map(draftSummary);
    },
    async readDraft(id): Promise<SavedDraft> {
      await open();
      const row = await getDemoMail(db, { userId, id });
      if (!row?.labels.includes("DRAFT")) throw new MailboxError("not_found", `draft ${id}`);
      return {
        ...draftSummary(row),
        cc: row.ccAddresses,
        bcc: row.bccAddresses,
        body: row.body,
        threadId: row.threadId,
      };
    },
    async modifyLabels(id, add, remove) {
      await open();
      const [addNames, removeNames] = await Promise.all([labelNames(add), labelNames(remove)]);
      const labels = await updateDemoLabels(db, { userId, id, add: addNames, remove: removeNames });
      if (!labels) throw new MailboxError("not_found", id);
      return { id, labels };
    },
    async send(draft) {
      const row = await file(draft, ["SENT"]);
      return { messageId: row.id, threadId: row.threadId };
    },
    async neverSeen(addresses) {
      await open();
      return unseenAddresses(addresses, await demoCorrespondents(db, { userId }));
    },
  };
}
