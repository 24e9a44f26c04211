/**
 * Only a month or day WITH its year is read: what happened then is usually told then or in the days
 * after. No relative dates, no month without a year, no year alone.
 */
import { DAY_MS, MONTH_SOURCE, monthIndex, validUtcDate } from "@/core/calendar";

export interface DatePeriod {
  start: Date;
  /** Exclusive. */
  end: Date;
}

const DAY = "(\\d{1,2})(?:st|nd|rd|th)?";
const YEAR = "((?:19|20)\\d\\d)";
/** Each alternative with its groups: [ISO year, month, day] | [month, day, year] | [day, month, year] | [month, year]. */
const DATE = new RegExp(
  [
    `\\b(\\d{4})-(\\d{2})-(\\d{2})\\b`,
    `\\b(${MONTH_SOURCE})\\s+${DAY},?\\s+${YEAR}\\b`,
    `\\b${DAY}(?:\\s+of)?\\s+(${MONTH_SOURCE}),?\\s+${YEAR}\\b`,
    `\\b(${MONTH_SOURCE}),?\\s+${YEAR}\\b`,
  ].join("|"),
  "gi",
);

/** An impossible day such as "30 February 2023" is skipped. */
export function namedPeriod(text: string): DatePeriod | null {
  for (const m of text.matchAll(DATE)) {
    const period =
      m[1] !== undefined
        ? dayPeriod(Number(m[1]), Number(m[2]) - 1, Number(m[3]))
        : m[4] !== undefined
          ? dayPeriod(Number(m[6]), monthIndex(m[4]), Number(m[5]))
          : m[7] !== undefined
            ? dayPeriod(Number(m[9]), monthIndex(m[8] ?? ""), Number(m[7]))
            : monthPeriod(Number(m[11]), monthIndex(m[10] ?? ""));
    if (period) return period;
  }
  return null;
}

export function dateWindowOf(text: string | undefined, daysAfter: number): DatePeriod | null {
  const period = text === undefined ? null : namedPeriod(text);
  return period && { start: period.start, end: new Date(period.end.getTime() + daysAfter * DAY_MS) };
}

function dayPeriod(year: number, month: number, day: number): DatePeriod | null {
  const start = month < 0 ? undefined : validUtcDate(year, month, day);
  return start ? { start, end: new Date(start.getTime() + DAY_MS) } : null;
}

function monthPeriod(year: number, month: number): DatePeriod | null {
  if (month < 0) return null;
  return { start: new Date(Date.UTC(year, month, 1)), end: new Date(Date.UTC(year, month + 1, 1)) };
}
