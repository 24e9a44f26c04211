import { describe, expect, it } from "vitest";
import {
  clock,
  dateContext,
  deadlineState,
  durationWords,
  formatBytes,
  formatCalendarDate,
  formatDateTime,
  localeFromAcceptLanguage,
  splitDates,
  withLocalDates,
} from "./format";

describe("dates in the user's locale", () => {
  const GB = { locale: "en-GB", today: "2026-12-01" };

  it("shows a calendar date with its weekday in the locale's short form, whatever the server's time zone", () => {
    // The case: "next Friday" said on Tuesday 1 December 2026.
    expect(formatCalendarDate("2026-12-11", GB)).toBe("Fri 11 Dec");
    expect(formatCalendarDate("2026-12-11", { locale: "en-US", today: "2026-12-01" })).toBe("Fri, Dec 11");
    expect(formatCalendarDate("2026-12-11", { locale: "de-DE", today: "2026-12-01" })).toBe("Fr., 11. Dez.");
  });

  it("adds the year only when it is not this year's", () => {
    expect(formatCalendarDate("2027-03-03", GB)).toBe("Wed, 3 Mar 2027");
    expect(formatCalendarDate("2027-01-08", { locale: "en-GB", today: "2027-01-02" })).toBe("Fri 8 Jan");
  });

  it("leaves what is not a calendar date as written", () => {
    expect(formatCalendarDate("2027-02-30", GB)).toBe("2027-02-30");
    expect(formatCalendarDate("soon", GB)).toBe("soon");
  });

  it("rewrites the ISO dates of a memory's text", () => {
    expect(withLocalDates("Needs to renew passport by 2027-03-03", GB)).toBe(
      "Needs to renew passport by Wed, 3 Mar 2027",
    );
    expect(withLocalDates("Lives in Berlin", GB)).toBe("Lives in Berlin");
  });

  it("cuts a text at its dates, keeping each as written for the hover", () => {
    expect(splitDates("From 2026-12-18 to 2027-03-03, not 2027-02-30.", GB)).toEqual([
      "From ",
      { iso: "2026-12-18", shown: "Fri 18 Dec" },
      " to ",
      { iso: "2027-03-03", shown: "Wed, 3 Mar 2027" },
      ", not 2027-02-30.",
    ]);
    expect(splitDates("2026-12-18", GB)).toEqual([{ iso: "2026-12-18", shown: "Fri 18 Dec" }]);
    expect(splitDates("No date", GB)).toEqual(["No date"]);
  });

  it("shows an instant in the user's time zone and locale, not the server's", () => {
    const instant = "2026-12-01T23:30:00.000Z";
    expect(formatDateTime(instant, { ...GB, timeZone: "Europe/Berlin" })).toBe("2 Dec 2026, 00:30");
    // ICU puts a narrow no-break space before "PM".
    expect(formatDateTime(instant, { locale: "en-US", timeZone: "America/New_York", today: "2026-12-01" })).toMatch(
      /^Dec 1, 2026, 6:30\sPM$/,
    );
    expect(formatDateTime(null, { ...GB, timeZone: "UTC" })).toBe("—");
  });

  it("builds a request's date context: Accept-Language, the account's zone (UTC while unset), today there", () => {
    const now = new Date("2026-12-01T23:30:00.000Z");
    expect(dateContext("en-GB,en;q=0.9", "Europe/Berlin", now)).toEqual({
      locale: "en-GB",
      timeZone: "Europe/Berlin",
      today: "2026-12-02",
    });
    expect(dateContext(null, null, now)).toEqual({ locale: "en-US", timeZone: "UTC", today: "2026-12-01" });
  });

  it("reads the locale from Accept-Language, skipping what Intl does not know", () => {
    expect(localeFromAcceptLanguage("en-GB,en;q=0.9")).toBe("en-GB");
    expect(localeFromAcceptLanguage("*, fr-FR;q=0.8")).toBe("fr-FR");
    expect(localeFromAcceptLanguage("")).toBe("en-US");
    expect(localeFromAcceptLanguage(null)).toBe("en-US");
  });

  it("says whether a deadline is past, today or ahead of the user's today", () => {
    expect(deadlineState("2026-11-29", "2026-11-30")).toBe("overdue");
    expect(deadlineState("2026-11-30", "2026-11-30")).toBe("today");
    expect(deadlineState("2027-03-03", "2026-11-30")).toBe("upcoming");
  });
});

describe("dictation's clock and limit", () => {
  it("clock: whole seconds as m:ss", () => {
    expect([0, 7.9, 60, 299.99, 300].map(clock)).toEqual(["0:00", "0:07", "1:00", "4:59", "5:00"]);
  });
  it("durationWords: minutes when whole, else seconds", () => {
    expect([300, 60, 90, 1].map(durationWords)).toEqual(["5 minutes", "1 minute", "90 seconds", "1 second"]);
  });
  it("formatBytes", () => {
    expect([512, 131_982, 2_500_000].map(formatBytes)).toEqual(["512 B", "129 KB", "2.4 MB"]);
  });
});
