/**
 * The offline agent's plan: with no model key, agent mode still works end to end by a deterministic
 * tool plan for common mail requests; a send is only prepared for approval, never sent by the plan.
 */

import { replySubject } from "@/lib/agent/mailbox/threading";
import type { DraftSummary, SavedDraft } from "@/lib/agent/mailbox/types";

export type PlannedTool =
  | "search_emails"
  | "read_email"
  | "list_labels"
  | "create_draft"
  | "list_drafts"
  | "read_draft"
  | "send_email";

export interface ToolStep {
  tool: string;
  args: Record<string, unknown>;
  result: unknown;
}

export type PlanStep =
  | { kind: "tool"; tool: PlannedTool; args: Record<string, unknown> }
  | { kind: "answer"; text: string };

interface Summary {
  id: string;
  from: string;
  subject: string;
  date: string;
  snippet: string;
  to?: string[];
  unread?: boolean;
}

const callTool = (tool: PlannedTool, args: Record<string, unknown>): PlanStep => ({ kind: "tool", tool, args });
const answer = (text: string): PlanStep => ({ kind: "answer", text });

function failure(result: unknown): string | null {
  if (result && typeof result === "object" && "error" in result) return String((result as { error: unknown }).error);
  return null;
}

const displayDate = (iso: string) =>
  new Date(iso).toLocaleDateString("en-GB", { weekday: "short", day: "numeric", month: "short", timeZone: "UTC" });

/** "Maya Chen <maya.chen@example.com>" → "Maya Chen"; a bare address stays as it is. */
export function senderName(from: string): string {
  const match = /^\s*"?([^"<]+?)"?\s*<[^>]+>\s*$/.exec(from);
  return match?.[1]?.trim() ?? from.trim();
}

export function addressOf(from: string): string {
  return /<([^>]+)>/.exec(from)?.[1]?.trim() ?? from.trim();
}

function listEmails(emails: Summary[], intro: string): string {
  const lines = emails.map(
    (email) =>
      `- **${email.subject || "(no subject)"}** — ${senderName(email.from)}, ${displayDate(email.date)}${email.unread ? " (unread)" : ""}: ${email.snippet}`,
  );
  return `${intro}\n\n${lines.join("\n")}`;
}

function firstSentences(text: string, count = 2): string {
  const sentences =
    text
      .replace(/\s+/g, " ")
      .trim()
      .match(/[^.!?]+[.!?]+|[^.!?]+$/g) ?? [];
  return sentences.slice(0, count).join(" ").trim();
}

function dictated(text: string): string {
  const trimmed = text
    .trim()
    .replace(/^["'“‘]|["'”’]$/g, "")
    .trim();
  const body = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(body) ? body : `${body}.`;
}

const SEARCH_FROM =
  /\b(?:find|search|show|list|get|any|look for)\b.*?\b(?:e-?mails?|mails?|messages?)\s+(?:from|by)\s+([\p{L}][\p{L}.'@-]*(?:\s+[\p{L}][\p{L}.'-]*)?)/iu;
const LATEST =
  /\b(?:summari[sz]e|read|open|what(?:'s| is| does)?)\b.*\b(?:latest|last|newest|most recent)\s+(?:e-?mail|mail|message)/i;
const UNREAD = /\bunread\b/i;
const SENT =
  /\bsent\s+(?:e-?mails?|mail|messages?|folder|items|box)\b|\b(?:have|did)\s+I\s+sen[dt]\b|\bI(?:'ve| have)?\s+sent\b/i;
const LABELS = /\b(?:labels?|folders?)\b/i;
const DRAFT_REPLY =
  /\bdraft\b.*?\breply\s+to\s+([\p{L}][\p{L}.'@-]*)\s*(?:,\s*)?(?:saying|to say|that says|that|with)\s+(.+)$/isu;
const SEND =
  /\b(?:(?:send|write)\s+(?:an?\s+)?(?:e-?mail|message|reply)\s+to|e-?mail|reply\s+to)\s+([\p{L}][\p{L}.'@-]*)\s*(?:,\s*)?(?:saying|to say|that says|that|with)\s+(.+)$/isu;

/** "draft(s)" as a noun, not the topic of a search ("emails about the draft"). */
const DRAFT_NOUN =
  /\b(?:my|the|your|any|all|saved|unsent|latest|last|newest|recent)\s+(?:(?:saved|unsent|latest|last|newest|recent|e-?mail|mail)\s+)?(drafts?)\b|\b(drafts?)\s+(?:folder|box)\b|^\s*(drafts?)\s*[?.!]*$/i;
const DRAFT_TOPIC = /\b(?:about|regarding|mentioning|re)\s+(?:the|my|a|your)\s+drafts?\b/i;
const DRAFT_RECIPIENT = /\bdrafts?\b.*?\b(?:to|for|addressed to)\s+([\p{L}][\p{L}.'@-]*)/iu;
const DRAFT_SUBJECT =
  /\bdrafts?\b.*?\b(?:about|on|re|regarding|titled|called)\s+(?:the\s+|my\s+|a\s+)?(.+?)\s*[?.!]*$/iu;

export interface DraftRequest {
  open: boolean;
  to: string | null;
  subject: string | null;
}

export function draftRequest(text: string): DraftRequest | null {
  const noun = DRAFT_NOUN.exec(text);
  if (!noun || DRAFT_TOPIC.test(text)) return null;
  const word = (noun[1] ?? noun[2] ?? noun[3] ?? "").toLowerCase();
  const to = DRAFT_RECIPIENT.exec(text)?.[1]?.replace(/[.?!,]+$/, "") ?? null;
  const subject = to ? null : (DRAFT_SUBJECT.exec(text)?.[1] ?? null);
  return { open: word === "draft", to, subject };
}

function draftMatches(draft: DraftSummary, request: DraftRequest): boolean {
  if (request.to) {
    const who = request.to.toLowerCase();
    return draft.to.some((recipient) => recipient.toLowerCase().includes(who));
  }
  if (request.subject) {
    const words = request.subject.toLowerCase().split(/\s+/).filter(Boolean);
    return words.every((w) => draft.subject.toLowerCase().includes(w));
  }
  return true;
}

function draftLines(drafts: DraftSummary[]): string {
  return drafts
    .map(
      (draft) =>
        `- **${draft.subject || "(no subject)"}** — to ${draft.to.map(senderName).join(", ") || "(no recipient)"}, ${displayDate(draft.date)}: ${draft.snippet}`,
    )
    .join("\n");
}

function draftsWhat(request: DraftRequest): string {
  if (request.to) return ` to ${request.to}`;
  if (request.subject) return ` about “${request.subject}”`;
  return "";
}

function planDrafts(request: DraftRequest, steps: readonly ToolStep[]): PlanStep {
  if (steps.length === 0) return callTool("list_drafts", { max: 25 });
  const drafts = (steps[0]?.result ?? []) as DraftSummary[];
  const wanted = drafts.filter((draft) => draftMatches(draft, request));
  if (steps.length === 1) {
    if (drafts.length === 0) return answer("You have no saved drafts.");
    if (wanted.length === 0)
      return answer(
        `I found no draft${draftsWhat(request)}. Your saved draft${drafts.length === 1 ? "" : "s"}:\n\n${draftLines(drafts)}`,
      );
    const [first] = wanted;
    if (request.open && first) return callTool("read_draft", { id: first.id });
    const count = `${wanted.length} saved draft${wanted.length === 1 ? "" : "s"}${draftsWhat(request)}`;
    return answer(`You have ${count}:\n\n${draftLines(wanted)}`);
  }
  const draft = steps.at(-1)?.result as SavedDraft;
  const to = draft.to.map(senderName).join(", ") || "(no recipient)";
  const body = draft.body.trim() ? draft.body.trim().replace(/^/gm, "> ") : "> (empty)";
  return answer(
    `Your draft to ${to}, “${draft.subject || "(no subject)"}” (saved ${displayDate(draft.date)}):\n\n${body}`,
  );
}

export const AGENT_HELP =
  'In agent mode I can work with your mailbox: search it ("find emails from Maya"), summarise a message ' +
  '("summarise my latest email"), show unread or sent mail, list labels, save a draft ("draft a reply to Tom saying ' +
  'I\'ll be there at 10"), show your drafts ("open the draft to Tom") and prepare an email for you to approve ("email Priya saying the numbers are ready"). ' +
  "Nothing is sent until you approve it.";

export function planNextStep(request: string, steps: readonly ToolStep[]): PlanStep {
  const last = steps.at(-1);
  const lastError = last ? failure(last.result) : null;
  if (lastError) return answer(lastError);
  const text = request.trim();

  const draftReply = DRAFT_REPLY.exec(text);
  const send = draftReply ? null : SEND.exec(text);
  const compose = draftReply ?? send;
  if (compose) {
    const [, who = "", said = ""] = compose;
    const tool: PlannedTool = draftReply ? "create_draft" : "send_email";
    if (steps.length === 0) {
      if (who.includes("@")) return callTool(tool, { to: [who], subject: "A note from me", body: dictated(said) });
      return callTool("search_emails", { query: `from:${who}`, max: 1 });
    }
    const found = steps[0]?.tool === "search_emails" ? (steps[0].result as Summary[]) : [];
    if (steps.length === 1 && steps[0]?.tool === "search_emails") {
      const original = found[0];
      if (!original)
        return answer(
          `I couldn't find any email from ${who}, so I don't know their address. Tell me their email address and I'll prepare it.`,
        );
      // A reply in the original's thread (the tool threads it from reply_to_id).
      return callTool(tool, {
        to: [original.from],
        subject: replySubject(original.subject),
        body: dictated(said),
        reply_to_id: original.id,
      });
    }
    const composed = steps.find((step) => step.tool === tool);
    const args = composed?.args as { to?: string[]; subject?: string } | undefined;
    const to = (args?.to ?? []).map(senderName).join(", ");
    return answer(
      tool === "create_draft"
        ? `I saved a draft to ${to} with the subject "${args?.subject}". It is in your Drafts; nothing was sent.`
        : // The card below says what became of it (waiting, sent, declined, failed): this text, recorded
          // as the model's answer before the user decides, says only what was done.
          `I prepared an email to ${to} ("${args?.subject}") for you to approve, edit or decline below.`,
    );
  }

  const searchFrom = SEARCH_FROM.exec(text);
  if (searchFrom) {
    const who = (searchFrom[1] ?? "").trim().replace(/[.?!]+$/, "");
    if (steps.length === 0) return callTool("search_emails", { query: `from:${who}`, max: 10 });
    const emails = (last?.result ?? []) as Summary[];
    if (emails.length === 0) return answer(`I found no emails from ${who}.`);
    return answer(listEmails(emails, `I found ${emails.length} email${emails.length === 1 ? "" : "s"} from ${who}:`));
  }

  const drafts = draftRequest(text);
  if (drafts) return planDrafts(drafts, steps);

  if (LATEST.test(text)) {
    if (steps.length === 0) return callTool("search_emails", { query: "in:inbox", max: 1 });
    if (steps.length === 1) {
      const [latest] = (last?.result ?? []) as Summary[];
      if (!latest) return answer("Your inbox is empty.");
      return callTool("read_email", { id: latest.id });
    }
    const email = last?.result as Summary & { body: string };
    return answer(
      `Your latest email is from ${senderName(email.from)}, "${email.subject}" (${displayDate(email.date)}). ` +
        `In short: ${firstSentences(email.body)}`,
    );
  }

  if (SENT.test(text)) {
    if (steps.length === 0) return callTool("search_emails", { query: "in:sent", max: 10 });
    const emails = (last?.result ?? []) as Summary[];
    if (emails.length === 0) return answer("You haven't sent any emails yet.");
    return answer(
      listEmails(
        emails.map((email) => ({ ...email, from: `to ${(email.to ?? []).map(senderName).join(", ")}` })),
        `Your ${emails.length} most recent sent email${emails.length === 1 ? "" : "s"}:`,
      ),
    );
  }

  if (UNREAD.test(text)) {
    if (steps.length === 0) return callTool("search_emails", { query: "is:unread in:inbox", max: 10 });
    const emails = (last?.result ?? []) as Summary[];
    if (emails.length === 0) return answer("You have no unread emails.");
    return answer(listEmails(emails, `You have ${emails.length} unread email${emails.length === 1 ? "" : "s"}:`));
  }

  if (LABELS.test(text)) {
    if (steps.length === 0) return callTool("list_labels", {});
    const labels = (last?.result ?? []) as { name: string; type: string }[];
    const own = labels.filter((label) => label.type === "user").map((label) => label.name);
    return answer(
      `Your mailbox has the system labels ${labels
        .filter((label) => label.type === "system")
        .map((label) => label.name)
        .join(", ")}${own.length > 0 ? `, and your own: ${own.join(", ")}` : ""}.`,
    );
  }

  return answer(AGENT_HELP);
}
