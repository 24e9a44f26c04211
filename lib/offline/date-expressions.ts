/** Deadline date expressions resolved on calendar dates in UTC, never the server's time zone. */
import {
  DAY_MS,
  daysToWeekday,
  MONTH_SOURCE as MONTH,
  monthIndex,
  validUtcDate,
  WEEKDAYS,
  type WeekdayModifier,
} from "@/core/calendar";

const DAY = "(?:[12]\\d|3[01]|0?[1-9])(?:st|nd|rd|th)?";
/** Full weekday names only: abbreviations such as "sun" or "sat" are ordinary words too often. */
const WEEKDAY = "(?:sun|mon|tues|wednes|thurs|fri|satur)day";
const NUMBER_WORDS: Readonly<Record<string, number>> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
};
const COUNT = "(?:\\d{1,3}|a|an|one|two|three|four|five|six|seven)";

/** Regular-expression source (no groups, case-insensitive use) matching one supported date expression. */
export const DATE_EXPRESSION_SOURCE = [
  "today",
  "tonight",
  "(?:the\\s+day\\s+after\\s+)?tomorrow",
  `(?:(?:this|next|on)\\s+)?${WEEKDAY}`,
  `(?:in|within)\\s+${COUNT}\\s+(?:days?|weeks?)\\s+(?:of|from)\\s+today`,
  `${COUNT}\\s+(?:days?|weeks?)\\s+from\\s+today`,
  `in\\s+${COUNT}\\s+(?:days?|weeks?)`,
  "in\\s+a\\s+fortnight",
  `${COUNT}\\s+weeks?\\s+(?:on|from)\\s+(?:this\\s+|next\\s+)?${WEEKDAY}`,
  "\\d{4}-\\d{2}-\\d{2}",
  `${MONTH}\\s+${DAY}(?:,?\\s+\\d{4})?`,
  `(?:the\\s+)?${DAY}(?:\\s+of)?\\s+${MONTH}(?:,?\\s+\\d{4})?`,
].join("|");

const WHOLE_EXPRESSION = new RegExp(`^(?:${DATE_EXPRESSION_SOURCE})$`, "i");

function parseIsoDate(iso: string): Date | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return validUtcDate(year, month - 1, day);
}

export function formatIsoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * DAY_MS);
}

function weekdayIndex(word: string): number {
  return WEEKDAYS.findIndex((day) => day.startsWith(word.slice(0, 3)));
}

function modifierOf(word: string | undefined): WeekdayModifier {
  return word === "this" || word === "next" ? word : undefined;
}

function nextMonthDay(today: Date, month: number, day: number, year: number | undefined): Date | undefined {
  if (year !== undefined) return validUtcDate(year, month, day);
  const thisYear = validUtcDate(today.getUTCFullYear(), month, day);
  return thisYear && thisYear >= today ? thisYear : validUtcDate(today.getUTCFullYear() + 1, month, day);
}

/** Undefined when not a supported or valid date; weekdays follow `daysToWeekday` (docs/extraction.md § Dates). */
export function resolveDateExpression(expression: string, currentDate: string): string | undefined {
  const today = parseIsoDate(currentDate);
  const text = expression.trim().toLowerCase().replace(/\s+/g, " ");
  if (!today || !WHOLE_EXPRESSION.test(text)) return undefined;

  const resolved = ((): Date | undefined => {
    if (text === "today" || text === "tonight") return today;
    if (text === "tomorrow") return addDays(today, 1);
    if (text === "the day after tomorrow") return addDays(today, 2);
    if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return parseIsoDate(text);

    if (text === "in a fortnight") return addDays(today, 14);
    // "within two weeks of today", "10 days from today": the last day of the period.
    const relative =
      /^(?:in|within) (\S+) (day|week)s? (?:of|from) today$/.exec(text) ??
      /^(\S+) (day|week)s? from today$/.exec(text) ??
      /^in (\S+) (day|week)s?$/.exec(text);
    if (relative) {
      const count = NUMBER_WORDS[relative[1] ?? ""] ?? Number(relative[1]);
      return addDays(today, relative[2] === "week" ? count * 7 : count);
    }

    // "a week on Friday", "two weeks from next Tuesday": the weekday as below, then the weeks.
    const weeksOn = new RegExp(`^(\\S+) weeks? (?:on|from) (?:(this|next) )?(${WEEKDAY})$`).exec(text);
    if (weeksOn) {
      const count = NUMBER_WORDS[weeksOn[1] ?? ""] ?? Number(weeksOn[1]);
      const target = weekdayIndex(weeksOn[3] ?? "");
      return addDays(today, daysToWeekday(today.getUTCDay(), target, modifierOf(weeksOn[2])) + count * 7);
    }

    const weekday = new RegExp(`^(?:(this|next|on) )?(${WEEKDAY})$`).exec(text);
    if (weekday) {
      const target = weekdayIndex(weekday[2] ?? "");
      return addDays(today, daysToWeekday(today.getUTCDay(), target, modifierOf(weekday[1])));
    }

    const monthFirst = new RegExp(`^(${MONTH}) (\\d{1,2})(?:st|nd|rd|th)?(?:,? (\\d{4}))?$`).exec(text);
    const dayFirst = new RegExp(`^(?:the )?(\\d{1,2})(?:st|nd|rd|th)?(?: of)? (${MONTH})(?:,? (\\d{4}))?$`).exec(text);
    const [month, day, year] = monthFirst
      ? [monthFirst[1], monthFirst[2], monthFirst[3]]
      : dayFirst
        ? [dayFirst[2], dayFirst[1], dayFirst[3]]
        : [];
    if (month === undefined || day === undefined) return undefined;
    return nextMonthDay(today, monthIndex(month), Number(day), year === undefined ? undefined : Number(year));
  })();

  return resolved ? formatIsoDate(resolved) : undefined;
}
