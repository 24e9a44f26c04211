/**
 * The demo mailbox's search language: the common part of Gmail's, so that what the agent learns
 * to write works on both mailboxes.
 *   from:maya  to:tom  subject:lease  label:work  in:sent|inbox|drafts  is:unread|read|starred
 *   newer_than:7d  "an exact phrase"  bare words (each must appear in the sender, subject or body)
 */
export interface MailFilter {
  from: string[];
  to: string[];
  subject: string[];
  words: string[];
  /** Every one of these labels. */
  labels: string[];
  /** None of these labels. */
  withoutLabels: string[];
  newerThanDays: number | null;
}

const IN_LABELS: Record<string, string> = {
  inbox: "INBOX",
  sent: "SENT",
  drafts: "DRAFT",
  draft: "DRAFT",
  starred: "STARRED",
};

export function parseMailQuery(query: string): MailFilter {
  const filter: MailFilter = {
    from: [],
    to: [],
    subject: [],
    words: [],
    labels: [],
    withoutLabels: [],
    newerThanDays: null,
  };
  const tokens = query.match(/(\w+:)?"[^"]*"|\S+/g) ?? [];
  for (const token of tokens) {
    const match = /^(\w+):(.+)$/.exec(token);
    const unquote = (value: string) => value.replace(/^"|"$/g, "").trim();
    if (!match) {
      const word = unquote(token);
      if (word && !/^(or|and)$/i.test(word)) filter.words.push(word);
      continue;
    }
    const [, key = "", raw = ""] = match;
    const value = unquote(raw);
    if (!value) continue;
    switch (key.toLowerCase()) {
      case "from":
        filter.from.push(value);
        break;
      case "to":
        filter.to.push(value);
        break;
      case "subject":
        filter.subject.push(value);
        break;
      case "label":
        filter.labels.push(value.toUpperCase() === value ? value : labelName(value));
        break;
      case "in": {
        const label = IN_LABELS[value.toLowerCase()];
        if (label) filter.labels.push(label);
        break;
      }
      case "is":
        if (value.toLowerCase() === "unread") filter.labels.push("UNREAD");
        else if (value.toLowerCase() === "read") filter.withoutLabels.push("UNREAD");
        else if (value.toLowerCase() === "starred") filter.labels.push("STARRED");
        else if (value.toLowerCase() === "important") filter.labels.push("IMPORTANT");
        break;
      case "newer_than": {
        const days = /^(\d+)([dmy])$/i.exec(value);
        if (days) {
          const unit = (days[2] ?? "d").toLowerCase();
          filter.newerThanDays = Number(days[1]) * (unit === "y" ? 365 : unit === "m" ? 30 : 1);
        }
        break;
      }
      default:
        filter.words.push(value);
    }
  }
  return filter;
}

/** System labels are upper case (INBOX); a user's own keep their case ("Work"). */
function labelName(value: string): string {
  const upper = value.toUpperCase();
  return ["INBOX", "SENT", "DRAFT", "UNREAD", "STARRED", "IMPORTANT", "SPAM", "TRASH"].includes(upper) ? upper : value;
}
