/**
 * `send_email` never sends: it records a send waiting for the user's approval (lib/agent/approval.ts).
 * A reply's subject matches the thread's, since Gmail leaves a reply whose subject differs out of it.
 * A mailbox failure is returned as `{ error }` so the agent can tell the user what to do.
 */
import { type StructuredToolInterface, tool } from "@langchain/core/tools";
import { z } from "zod";
import { logger } from "@/core/logger";
import type { Db } from "@/db/client";
import { type OperationContext, recordOperation } from "@/db/queries/gmail-operations";
import { recipient } from "@/lib/validation/agent";
import { replySubject, replyThread, subjectsMatch } from "./mailbox/threading";
import { type Draft, type Mailbox, MailboxError } from "./mailbox/types";

export const MAIL_TOOL_NAMES = [
  "search_emails",
  "read_email",
  "list_labels",
  "create_draft",
  "list_drafts",
  "read_draft",
  "modify_labels",
  "send_email",
] as const;
export type MailToolName = (typeof MAIL_TOOL_NAMES)[number];

// The model's arguments are held to the same rules as a draft the user edits (lib/validation/agent).
const addresses = z.array(recipient).max(50);
const replyToId = z
  .string()
  .min(1)
  .max(200)
  .optional()
  .describe("To reply: the id of the email this answers (from search_emails or read_email)");
const compose = z.object({
  to: addresses.min(1),
  subject: z.string().max(500),
  body: z.string().max(20_000),
  cc: addresses.optional(),
  bcc: addresses.optional(),
  reply_to_id: replyToId,
});

const schemas = {
  search_emails: z.object({
    query: z.string().max(500).describe('Gmail search syntax, e.g. "from:maya newer_than:7d" or "subject:lease"'),
    max: z.number().int().min(1).max(25).default(10).describe("How many results, newest first (1–25)"),
  }),
  read_email: z.object({ id: z.string().min(1).max(200).describe("An email id from search_emails") }),
  list_labels: z.object({}),
  create_draft: compose,
  list_drafts: z.object({
    max: z.number().int().min(1).max(25).default(10).describe("How many drafts, newest first (1–25)"),
  }),
  read_draft: z.object({ id: z.string().min(1).max(200).describe("A draft id from list_drafts or create_draft") }),
  modify_labels: z.object({
    id: z.string().min(1).max(200),
    add: z.array(z.string().min(1).max(100)).max(10).default([]),
    remove: z.array(z.string().min(1).max(100)).max(10).default([]),
  }),
  send_email: compose,
} satisfies Record<MailToolName, z.ZodObject>;

const DESCRIPTIONS: Record<MailToolName, string> = {
  search_emails:
    "Search the user's mailbox. Returns id, from, subject, date and a snippet of each match, newest first.",
  read_email: "Read one email in full by its id, with its threadId and Message-ID.",
  list_labels: "List the mailbox's labels.",
  create_draft:
    "Save a draft in the user's mailbox (nothing is sent). To reply, pass reply_to_id: the draft joins that email's thread.",
  list_drafts:
    "List the user's saved drafts (unsent emails), newest first: each draft's id, recipients, subject, date and a snippet. " +
    "Use it when the user asks about their drafts; open one with read_draft.",
  read_draft:
    "Open one saved draft by its draft id (from list_drafts or create_draft; not an email id): recipients, subject and the full body.",
  modify_labels:
    "Add or remove labels on an email by label name or id (e.g. remove UNREAD to mark it read, add STARRED). Only existing labels.",
  send_email:
    "Prepare an email to send. It is NOT sent: the user sees the exact draft and approves, edits or declines it. " +
    "To reply, pass reply_to_id (the id of the email you answer): the reply joins its thread and keeps its subject. " +
    "The chat shows the draft on a card that says what becomes of it (waiting, sent, declined, failed): tell the user " +
    "you prepared it for them to review there, without saying that it was sent or that it is still waiting.",
};

/** Not whole email bodies. */
function logged(name: MailToolName, result: unknown): unknown {
  if (name === "search_emails" && Array.isArray(result)) {
    return { count: result.length, ids: result.map((email: { id: string }) => email.id) };
  }
  if (name === "list_drafts" && Array.isArray(result)) {
    return { count: result.length, ids: result.map((draft: { id: string }) => draft.id) };
  }
  if (name === "read_draft" && result && typeof result === "object" && "id" in result) {
    const draft = result as { id: string; subject: string; body: string };
    return { id: draft.id, subject: draft.subject, bodyChars: draft.body.length };
  }
  if (name === "read_email" && result && typeof result === "object" && "id" in result) {
    const email = result as { id: string; threadId: string; subject: string; body: string };
    return { id: email.id, threadId: email.threadId, subject: email.subject, bodyChars: email.body.length };
  }
  return result;
}

export interface MailToolsInput {
  db: Db;
  mailbox: Mailbox;
  context: OperationContext;
}

export function toDraft(input: { to: string[]; subject: string; body: string; cc?: string[]; bcc?: string[] }): Draft {
  return { to: input.to, cc: input.cc ?? [], bcc: input.bcc ?? [], subject: input.subject, body: input.body };
}

async function composed(mailbox: Mailbox, args: z.infer<typeof compose>): Promise<Draft> {
  const draft = toDraft(args);
  if (!args.reply_to_id) return draft;
  const original = await mailbox.read(args.reply_to_id);
  return {
    ...draft,
    subject: subjectsMatch(draft.subject, original.subject) ? draft.subject : replySubject(original.subject),
    thread: replyThread(original),
  };
}

export function createMailTools({ db, mailbox, context }: MailToolsInput): StructuredToolInterface[] {
  const run = async (name: MailToolName, params: Record<string, unknown>, call: () => Promise<unknown>) => {
    const started = performance.now();
    try {
      const result = await call();
      const latencyMs = Math.round(performance.now() - started);
      await recordOperation(db, {
        ...context,
        operation: name,
        mailbox: mailbox.kind,
        params,
        status: "succeeded",
        result: logged(name, result),
        latencyMs,
      });
      return JSON.stringify(result);
    } catch (error) {
      return failed(name, params, error, started);
    }
  };
  const failed = async (name: MailToolName, params: Record<string, unknown>, error: unknown, started: number) => {
    const latencyMs = Math.round(performance.now() - started);
    const failure = error instanceof MailboxError ? error : null;
    if (!failure) logger.error({ err: error, operation: name }, "a mailbox tool failed unexpectedly");
    await recordOperation(db, {
      ...context,
      operation: name,
      mailbox: mailbox.kind,
      params,
      status: "failed",
      error: error instanceof Error ? error.message : String(error),
      latencyMs,
    });
    return JSON.stringify({ error: failure?.userMessage ?? "The mailbox failed unexpectedly. Try again later." });
  };

  return [
    tool((args) => run("search_emails", args, () => mailbox.search(args.query, args.max)), {
      name: "search_emails",
      description: DESCRIPTIONS.search_emails,
      schema: schemas.search_emails,
    }),
    tool((args) => run("read_email", args, () => mailbox.read(args.id)), {
      name: "read_email",
      description: DESCRIPTIONS.read_email,
      schema: schemas.read_email,
    }),
    tool((args) => run("list_labels", args, () => mailbox.listLabels()), {
      name: "list_labels",
      description: DESCRIPTIONS.list_labels,
      schema: schemas.list_labels,
    }),
    tool((args) => run("create_draft", args, async () => mailbox.createDraft(await composed(mailbox, args))), {
      name: "create_draft",
      description: DESCRIPTIONS.create_draft,
      schema: schemas.create_draft,
    }),
    tool((args) => run("list_drafts", args, () => mailbox.listDrafts(args.max)), {
      name: "list_drafts",
      description: DESCRIPTIONS.list_drafts,
      schema: schemas.list_drafts,
    }),
    tool((args) => run("read_draft", args, () => mailbox.readDraft(args.id)), {
      name: "read_draft",
      description: DESCRIPTIONS.read_draft,
      schema: schemas.read_draft,
    }),
    tool((args) => run("modify_labels", args, () => mailbox.modifyLabels(args.id, args.add, args.remove)), {
      name: "modify_labels",
      description: DESCRIPTIONS.modify_labels,
      schema: schemas.modify_labels,
    }),
    tool(
      async (args) => {
        let draft: Draft;
        const started = performance.now();
        try {
          draft = await composed(mailbox, args);
        } catch (error) {
          return failed("send_email", args, error, started);
        }
        const pending = await recordOperation(db, {
          ...context,
          operation: "send_email",
          mailbox: mailbox.kind,
          params: { ...draft },
          status: "pending_confirmation",
        });
        return JSON.stringify({ status: "awaiting_approval", operationId: pending.id, draft });
      },
      { name: "send_email", description: DESCRIPTIONS.send_email, schema: schemas.send_email },
    ),
  ];
}
