/** UTC days: no daylight saving. */
export const DAY_MS = 86_400_000;

export const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
] as const;

/** No groups; longest first. */
export const MONTH_SOURCE = `(?:${MONTHS.join("|")}|sept|jan|feb|mar|apr|jun|jul|aug|sep|oct|nov|dec)\\.?`;

/** Date.getUTCDay's order. */
export const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"] as const;

/** −1 when not a month. */
export function monthIndex(word: string): number {
  const key = word.toLowerCase().replace(".", "").slice(0, 3);
  return key.length < 3 ? -1 : MONTHS.findIndex((month) => month.startsWith(key));
}

/** Undefined when the day does not exist in that month (e.g. February 30). */
export function validUtcDate(year: number, monthIndex: number, day: number): Date | undefined {
  const date = new Date(Date.UTC(year, monthIndex, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === monthIndex && date.getUTCDate() === day
    ? date
    : undefined;
}

export type WeekdayModifier = "this" | "next" | undefined;

/**
 * chrono-node's rule (docs/extraction.md § Dates): "next Friday" is in NEXT ISO week; "this Friday" the nearest
 * from today, today included; plain "Friday" the nearest after today, since a deadline said that day rarely
 * means the same day.
 */
export function daysToWeekday(from: number, to: number, modifier: WeekdayModifier): number {
  if (modifier === "next") {
    const isoFrom = from === 0 ? 7 : from;
    const isoTo = to === 0 ? 7 : to;
    return 7 - isoFrom + isoTo;
  }
  const ahead = (to - from + 7) % 7;
  return modifier === "this" ? ahead : ahead || 7;
}
