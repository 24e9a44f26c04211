import { describe, expect, it } from "vitest";
import {
  clock,
  deadlineState,
  durationWords,
  formatBytes,
  formatCalendarDate,
  localeFromAcceptLanguage,
  withLocalDates,
} from "./format";

describe("dates in the user's locale", () => {
  it("shows a calendar date in the locale's long form, whatever the server's time zone", () => {
    expect(formatCalendarDate("2027-03-03", "en-GB")).toBe("3 March 2027");
    expect(formatCalendarDate("2027-03-03", "en-US")).toBe("March 3, 2027");
    expect(formatCalendarDate("2027-03-03", "de-DE")).toBe("3. März 2027");
  });

  it("rewrites the ISO dates of a memory's text", () => {
    expect(withLocalDates("Needs to renew passport by 2027-03-03", "en-GB")).toBe(
      "Needs to renew passport by 3 March 2027",
    );
    expect(withLocalDates("Lives in Berlin", "en-GB")).toBe("Lives in Berlin");
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
