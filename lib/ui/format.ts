/** Small, locale-stable formatters for numbers, durations and dates in the UI. */

export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "—";
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

/** 0.734 → "0.73"; null → "—". */
/** 131982 → "129 KB", 2_500_000 → "2.4 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function formatScore(value: number | null | undefined, digits = 2): string {
  return value === null || value === undefined ? "—" : value.toFixed(digits);
}

const dateTime = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short" });

export function formatDateTime(value: string | Date | null | undefined): string {
  if (!value) return "—";
  return dateTime.format(new Date(value));
}

const relative = new Intl.RelativeTimeFormat("en-US", { numeric: "auto" });
const units: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

/** "3 hours ago", "yesterday", "just now". */
export function formatRelative(value: string | Date | null | undefined, now: Date = new Date()): string {
  if (!value) return "never";
  const seconds = (new Date(value).getTime() - now.getTime()) / 1000;
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size) return relative.format(Math.round(seconds / size), unit);
  }
  return "just now";
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** How dates are shown to this user: their locale (from the browser's Accept-Language) and time zone. */
export interface DateContext {
  locale: string;
  /** Today's calendar date (YYYY-MM-DD) in the user's time zone. */
  today: string;
}

/** The first locale of an Accept-Language header that Intl supports; "en-US" otherwise. */
export function localeFromAcceptLanguage(header: string | null | undefined): string {
  for (const part of (header ?? "").split(",")) {
    const tag = part.split(";")[0]?.trim();
    if (!tag || tag === "*") continue;
    try {
      const [supported] = Intl.DateTimeFormat.supportedLocalesOf(tag);
      if (supported) return supported;
    } catch {
      // not a well-formed tag: try the next one
    }
  }
  return "en-US";
}

const ISO_DATE = /\b(\d{4})-(\d{2})-(\d{2})\b/g;

/** A calendar date (YYYY-MM-DD) in the locale's long form: "3 March 2027", "March 3, 2027". */
export function formatCalendarDate(isoDate: string, locale: string): string {
  const [, y, m, d] = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDate) ?? [];
  if (!y || !m || !d) return isoDate;
  const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  return new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(date);
}

/** A memory's text with its ISO dates ("by 2027-03-03") in the locale's form ("by 3 March 2027"). */
export function withLocalDates(text: string, locale: string): string {
  return text.replace(ISO_DATE, (iso) => formatCalendarDate(iso, locale));
}

/** A deadline against today in the user's time zone. */
export function deadlineState(deadline: string, today: string): "overdue" | "today" | "upcoming" {
  return deadline < today ? "overdue" : deadline === today ? "today" : "upcoming";
}

/** "0:07", "4:59". */
export function clock(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

/** "5 minutes", "90 seconds". */
export function durationWords(seconds: number): string {
  return seconds % 60 === 0
    ? `${seconds / 60} minute${seconds === 60 ? "" : "s"}`
    : `${seconds} second${seconds === 1 ? "" : "s"}`;
}
