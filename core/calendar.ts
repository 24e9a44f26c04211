/** English month and weekday names and day arithmetic, shared by the date parsers (lib/offline/date-expressions, retrieval's date window) and the extraction prompt. */

/** Milliseconds in a day (UTC days: no daylight saving). */
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

/** Regular-expression source (no groups) of a month name or abbreviation, with an optional dot; longest first. */
export const MONTH_SOURCE = `(?:${MONTHS.join("|")}|sept|jan|feb|mar|apr|jun|jul|aug|sep|oct|nov|dec)\\.?`;

/** English weekday names, Sunday first (Date.getUTCDay's order). */
export const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"] as const;

/** 0–11 for a month name or abbreviation matched by MONTH_SOURCE (any case); −1 otherwise. */
export function monthIndex(word: string): number {
  const key = word.toLowerCase().replace(".", "").slice(0, 3);
  return key.length < 3 ? -1 : MONTHS.findIndex((month) => month.startsWith(key));
}

/** The UTC date, or undefined when the day does not exist in that month (e.g. February 30). */
export function validUtcDate(year: number, monthIndex: number, day: number): Date | undefined {
  const date = new Date(Date.UTC(year, monthIndex, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === monthIndex && date.getUTCDate() === day
    ? date
    : undefined;
}

/** The word before a weekday that changes which one it means ("on Friday" is plain "Friday"). */
export type WeekdayModifier = "this" | "next" | undefined;

/**
 * Days from today (weekday `from`, 0 = Sunday) to the weekday `to` that the words mean — the one
 * rule of docs/extraction.md § Dates, the same as chrono-node's:
 * - "next Friday": the Friday of NEXT week, weeks running Monday to Sunday (ISO 8601). Said on
 *   Tuesday 1 December 2026, that is Friday 11 December, not the 4th; said on a Sunday, "next
 *   Monday" is tomorrow, the first day of next week.
 * - "this Friday": the nearest Friday from today on, today included.
 * - "Friday" (or "on Friday"): the nearest Friday after today (said on a Friday: a week later,
 *   since a deadline of "Friday" said that day rarely means the same day).
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
