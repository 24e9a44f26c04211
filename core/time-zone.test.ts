import { describe, expect, it } from "vitest";
import { calendarDateIn, isTimeZone } from "./time-zone";

describe("time zones", () => {
  it("knows IANA names and refuses others", () => {
    expect(isTimeZone("Europe/Paris")).toBe(true);
    expect(isTimeZone("Pacific/Auckland")).toBe(true);
    expect(isTimeZone("Mars/Olympus")).toBe(false);
    expect(isTimeZone("")).toBe(false);
  });

  it("gives the calendar date where the user is, UTC when unknown", () => {
    const lateUtc = new Date("2026-11-30T23:30:00Z");
    expect(calendarDateIn(lateUtc, null)).toBe("2026-11-30");
    expect(calendarDateIn(lateUtc, "Pacific/Auckland")).toBe("2026-12-01");
    expect(calendarDateIn(new Date("2026-12-01T02:00:00Z"), "America/Los_Angeles")).toBe("2026-11-30");
  });
});
