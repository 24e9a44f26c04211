import { type DateContext, formatDateTime, splitDates } from "@/lib/ui/format";

/**
 * A calendar date as the user reads it ("Fri, Dec 18"), the exact written value ("2026-12-18") on
 * hover and in `dateTime`.
 */
export function CalendarDate({ iso, shown }: { iso: string; shown: string }) {
  return (
    <time dateTime={iso} title={iso}>
      {shown}
    </time>
  );
}

/** A text whose ISO dates are shown in the user's form, each keeping its written value on hover. */
export function LocalDates({ text, dates }: { text: string; dates: Pick<DateContext, "locale" | "today"> }) {
  return (
    <>
      {splitDates(text, dates).map((part, index) =>
        typeof part === "string" ? (
          part
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one text, in their fixed order
          <CalendarDate key={index} iso={part.iso} shown={part.shown} />
        ),
      )}
    </>
  );
}

/** An instant in the user's locale and time zone ("18 Dec 2026, 14:03"); the stored UTC value on hover. */
export function DateTime({ value, dates }: { value: string | Date; dates: DateContext }) {
  const exact = new Date(value).toISOString();
  return (
    <time dateTime={exact} title={exact}>
      {formatDateTime(value, dates)}
    </time>
  );
}
