/** Gmail's threading rule (users.messages › threadId) and RFC 5322 §3.6.4–3.6.5; both mailboxes use them. */
import type { DraftThread, Email } from "./types";

const RE_PREFIX = /^(?:\s*re\s*:\s*)+/i;

export const subjectCore = (subject: string) => subject.replace(RE_PREFIX, "").replace(/\s+/g, " ").trim();

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
