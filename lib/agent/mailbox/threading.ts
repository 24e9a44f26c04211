/**
 * Replies that stay in their conversation, by the rules Gmail documents (users.messages › threadId:
 * "The requested threadId must be specified … The References and In-Reply-To headers must be set in
 * compliance with the RFC 2822 standard. The Subject headers must match.") and RFC 5322: §3.6.4 (a
 * reply's In-Reply-To is the parent's Message-ID; its References the parent's References — or,
 * without them, its In-Reply-To — followed by the parent's Message-ID) and §3.6.5 (a reply's subject
 * may start with "Re: " followed by the original subject). Both mailboxes use them.
 */
import type { DraftThread, Email } from "./types";

const RE_PREFIX = /^(?:\s*re\s*:\s*)+/i;

/** The subject without its "Re:" prefixes, whitespace collapsed. */
export const subjectCore = (subject: string) => subject.replace(RE_PREFIX, "").replace(/\s+/g, " ").trim();

/** Whether `reply` is the subject of a reply to a message with `original`'s subject. */
export const subjectsMatch = (reply: string, original: string) => subjectCore(reply) === subjectCore(original);

/** RFC 5322 §3.6.5: "Re: " + the original subject (once). */
export function replySubject(original: string): string {
  const core = subjectCore(original);
  return core === "" ? "Re:" : `Re: ${core}`;
}

/** RFC 5322 §3.6.4: the threading headers of a reply to `parent`. */
export function replyThread(parent: Pick<Email, "threadId" | "messageId" | "inReplyTo" | "references">): DraftThread {
  const ancestors = parent.references.length > 0 ? parent.references : parent.inReplyTo ? [parent.inReplyTo] : [];
  return {
    threadId: parent.threadId,
    inReplyTo: parent.messageId,
    references: parent.messageId ? [...ancestors, parent.messageId] : ancestors,
  };
}
