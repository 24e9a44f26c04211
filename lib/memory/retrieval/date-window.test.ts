import { describe, expect, it } from "vitest";
import { dateWindowOf, namedPeriod } from "./date-window";

const iso = (period: { start: Date; end: Date } | null) =>
  period && [period.start.toISOString().slice(0, 10), period.end.toISOString().slice(0, 10)];

describe("namedPeriod", () => {
  it("reads a month with its year as the whole month", () => {
    expect(iso(namedPeriod("What did Audrey do in November 2023?"))).toEqual(["2023-11-01", "2023-12-01"]);
    expect(iso(namedPeriod("in Dec. 2025"))).toEqual(["2025-12-01", "2026-01-01"]);
    expect(iso(namedPeriod("during May, 2023"))).toEqual(["2023-05-01", "2023-06-01"]);
  });

  it("reads a day with its year, in every order, as that day", () => {
    expect(iso(namedPeriod("on 7 May 2023"))).toEqual(["2023-05-07", "2023-05-08"]);
    expect(iso(namedPeriod("on the 19th of August, 2023?"))).toEqual(["2023-08-19", "2023-08-20"]);
    expect(iso(namedPeriod("June 15, 2025"))).toEqual(["2025-06-15", "2025-06-16"]);
    expect(iso(namedPeriod("since 2024-02-29"))).toEqual(["2024-02-29", "2024-03-01"]);
  });

  it("reads nothing without a year, relative dates, a year alone or an impossible day", () => {
    for (const text of [
      "What did I do in May?",
      "last May",
      "on 7 May",
      "yesterday",
      "in 2023",
      "on 30 February 2023",
      "2023-13-01",
    ]) {
      expect(namedPeriod(text), text).toBeNull();
    }
  });

  it("takes the first valid date when there are several", () => {
    expect(iso(namedPeriod("30 February 2023 or rather March 2023, not April 2023"))).toEqual([
      "2023-03-01",
      "2023-04-01",
    ]);
  });
});

describe("dateWindowOf", () => {
  it("extends the period by the days after, and is null without text or date", () => {
    expect(iso(dateWindowOf("in May 2023", 7))).toEqual(["2023-05-01", "2023-06-08"]);
    expect(iso(dateWindowOf("on 31 December 2023", 7))).toEqual(["2023-12-31", "2024-01-08"]);
    expect(dateWindowOf("what about May?", 7)).toBeNull();
    expect(dateWindowOf(undefined, 7)).toBeNull();
  });
});
