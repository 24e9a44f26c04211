import { calendarDateIn } from "@/core/time-zone";

export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "—";
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

/** 131982 → "129 KB", 2_500_000 → "2.4 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function formatScore(value: number | null | undefined, digits = 2): string {
  return value === null || value === undefined ? "—" : value.toFixed(digits);
}

/** In the account's time zone, so a server component renders what the user's clock said. */
export function formatDateTime(value: string | Date | null | undefined, dates: DateContext): string {
  if (!value) return "—";
  return new Intl.DateTimeFormat(dates.locale, {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: dates.timeZone,
  }).format(new Date(value));
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

export interface DateContext {
  locale: string;
  /** UTC while none is set. */
  timeZone: string;
  today: string;
}

export function localeFromAcceptLanguage(header: string | null | undefined): string {
  for (const part of (header ?? "").split(",")) {
    const tag = part.split(";")[0]?.trim();
    if (!tag || tag === "*") continue;
    try {
      const [supported] = Intl.DateTimeFormat.supportedLocalesOf(tag);
      if (supported) return supported;
    } catch {
      // A malformed tag: try the next one.
    }
  }
  return "en-US";
}

export function dateContext(
  acceptLanguage: string | null | undefined,
  timeZone: string | null | undefined,
  now: Date = new Date(),
): DateContext {
  const zone = timeZone ?? "UTC";
  return { locale: localeFromAcceptLanguage(acceptLanguage), timeZone: zone, today: calendarDateIn(now, zone) };
}

const ISO_DATE = /\b(\d{4})-(\d{2})-(\d{2})\b/g;

/** With its weekday, so the user can see which day a resolved "next Friday" meant and correct it. */
export function formatCalendarDate(isoDate: string, dates: Pick<DateContext, "locale" | "today">): string {
  const [, y, m, d] = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDate) ?? [];
  if (!y || !m || !d) return isoDate;
  const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  // Feb 30 and the like: not a date, so shown as written.
  if (date.getUTCDate() !== Number(d)) return isoDate;
  return new Intl.DateTimeFormat(dates.locale, {
    weekday: "short",
    day: "numeric",
    month: "short",
    year: y === dates.today.slice(0, 4) ? undefined : "numeric",
    // A calendar date has no time zone: it is formatted as the UTC day it was built as.
    timeZone: "UTC",
  }).format(date);
}

export interface TextDate {
  iso: string;
  shown: string;
}

/** So a component can show the user's form and keep the exact written value on hover (<time>). */
export function splitDates(text: string, dates: Pick<DateContext, "locale" | "today">): (string | TextDate)[] {
  const parts: (string | TextDate)[] = [];
  let last = 0;
  for (const match of text.matchAll(ISO_DATE)) {
    const iso = match[0];
    const shown = formatCalendarDate(iso, dates);
    if (shown === iso) continue;
    if (match.index > last) parts.push(text.slice(last, match.index));
    parts.push({ iso, shown });
    last = match.index + iso.length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

/** A memory's text with its ISO dates ("by 2027-03-03") in the user's form ("by Wed, 3 Mar 2027"). */
export function withLocalDates(text: string, dates: Pick<DateContext, "locale" | "today">): string {
  return text.replace(ISO_DATE, (iso) => formatCalendarDate(iso, dates));
}

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
