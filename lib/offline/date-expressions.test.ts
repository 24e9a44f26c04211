import { describe, expect, it } from "vitest";
import { resolveDateExpression } from "./date-expressions";

/** A Monday. */
const TODAY = "2026-11-30";

describe("resolveDateExpression", () => {
  it.each([
    ["today", "2026-11-30"],
    ["Tonight", "2026-11-30"],
    ["tomorrow", "2026-12-01"],
    ["the day after tomorrow", "2026-12-02"],
    ["Friday", "2026-12-04"],
    ["on friday", "2026-12-04"],
    ["this Friday", "2026-12-04"],
    ["next Friday", "2026-12-11"],
    ["Monday", "2026-12-07"],
    ["Sunday", "2026-12-06"],
    ["in 3 days", "2026-12-03"],
    ["in two weeks", "2026-12-14"],
    ["in a week", "2026-12-07"],
    ["2027-01-15", "2027-01-15"],
    ["December 5", "2026-12-05"],
    ["Dec 5", "2026-12-05"],
    ["Dec. 5th", "2026-12-05"],
    ["november 30", "2026-11-30"],
    ["Nov 29", "2027-11-29"],
    ["January 3", "2027-01-03"],
    ["the 5th of January", "2027-01-05"],
    ["5 March 2028", "2028-03-05"],
    ["March 5, 2028", "2028-03-05"],
  ])("resolves %j to %s", (expression, expected) => {
    expect(resolveDateExpression(expression, TODAY)).toBe(expected);
  });

  it.each(["2027-02-30", "February 30", "someday", "sun", "Friday-ish", ""])("rejects %j", (expression) => {
    expect(resolveDateExpression(expression, TODAY)).toBeUndefined();
  });

  it("counts a weekday from today: the same weekday means a week later", () => {
    expect(resolveDateExpression("Monday", "2026-11-30")).toBe("2026-12-07");
    expect(resolveDateExpression("Tuesday", "2026-11-30")).toBe("2026-12-01");
  });

  // The one rule (docs/extraction.md § Dates), across a whole week, Monday 30 November to Sunday
  // 6 December 2026. Columns: the weekday named, Monday to Sunday.
  const DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];
  // biome-ignore format: a table, one row per day
  const WEEK: [today: string, plain: string[], thisOne: string[], next: string[]][] = [
    ["2026-11-30 Mon",
      ["12-07", "12-01", "12-02", "12-03", "12-04", "12-05", "12-06"],
      ["11-30", "12-01", "12-02", "12-03", "12-04", "12-05", "12-06"],
      ["12-07", "12-08", "12-09", "12-10", "12-11", "12-12", "12-13"]],
    ["2026-12-01 Tue",
      ["12-07", "12-08", "12-02", "12-03", "12-04", "12-05", "12-06"],
      ["12-07", "12-01", "12-02", "12-03", "12-04", "12-05", "12-06"],
      ["12-07", "12-08", "12-09", "12-10", "12-11", "12-12", "12-13"]],
    ["2026-12-02 Wed",
      ["12-07", "12-08", "12-09", "12-03", "12-04", "12-05", "12-06"],
      ["12-07", "12-08", "12-02", "12-03", "12-04", "12-05", "12-06"],
      ["12-07", "12-08", "12-09", "12-10", "12-11", "12-12", "12-13"]],
    ["2026-12-03 Thu",
      ["12-07", "12-08", "12-09", "12-10", "12-04", "12-05", "12-06"],
      ["12-07", "12-08", "12-09", "12-03", "12-04", "12-05", "12-06"],
      ["12-07", "12-08", "12-09", "12-10", "12-11", "12-12", "12-13"]],
    ["2026-12-04 Fri",
      ["12-07", "12-08", "12-09", "12-10", "12-11", "12-05", "12-06"],
      ["12-07", "12-08", "12-09", "12-10", "12-04", "12-05", "12-06"],
      ["12-07", "12-08", "12-09", "12-10", "12-11", "12-12", "12-13"]],
    ["2026-12-05 Sat",
      ["12-07", "12-08", "12-09", "12-10", "12-11", "12-12", "12-06"],
      ["12-07", "12-08", "12-09", "12-10", "12-11", "12-05", "12-06"],
      ["12-07", "12-08", "12-09", "12-10", "12-11", "12-12", "12-13"]],
    ["2026-12-06 Sun",
      ["12-07", "12-08", "12-09", "12-10", "12-11", "12-12", "12-13"],
      ["12-07", "12-08", "12-09", "12-10", "12-11", "12-12", "12-06"],
      ["12-07", "12-08", "12-09", "12-10", "12-11", "12-12", "12-13"]],
    // The next week starts: every "next" moves on by seven days.
    ["2026-12-07 Mon",
      ["12-14", "12-08", "12-09", "12-10", "12-11", "12-12", "12-13"],
      ["12-07", "12-08", "12-09", "12-10", "12-11", "12-12", "12-13"],
      ["12-14", "12-15", "12-16", "12-17", "12-18", "12-19", "12-20"]],
  ];
  describe.each(WEEK)("said on %s", (today, plain, thisOne, next) => {
    const date = today.slice(0, 10);
    it.each(DAYS.map((day, i) => [day, plain[i], thisOne[i], next[i]]))("%s", (day, plainDay, thisDay, nextDay) => {
      expect(resolveDateExpression(day as string, date)).toBe(`2026-${plainDay}`);
      expect(resolveDateExpression(`on ${day}`, date)).toBe(`2026-${plainDay}`);
      expect(resolveDateExpression(`this ${day}`, date)).toBe(`2026-${thisDay}`);
      expect(resolveDateExpression(`next ${day}`, date)).toBe(`2026-${nextDay}`);
    });
  });

  it('counts "next" across a year\'s end', () => {
    // Tuesday 29 December 2026: next week is the first of 2027.
    expect(resolveDateExpression("next Friday", "2026-12-29")).toBe("2027-01-08");
    expect(resolveDateExpression("Friday", "2026-12-29")).toBe("2027-01-01");
  });

  it.each([
    ["a week on Tuesday", "2026-12-08"],
    ["two weeks on Saturday", "2026-12-19"],
    ["a week from next Wednesday", "2026-12-16"],
    ["within 10 days of today", "2026-12-10"],
    ["within three weeks from today", "2026-12-21"],
    ["5 days from today", "2026-12-05"],
    ["in a fortnight", "2026-12-14"],
  ])("resolves the relative deadline %j to %s (round 6)", (expression, expected) => {
    expect(resolveDateExpression(expression, TODAY)).toBe(expected);
  });

  it.each(["a week on", "within two weeks", "weeks on Friday", "a fortnight ago", "two weeks of today"])(
    "rejects the incomplete relative expression %j",
    (expression) => {
      expect(resolveDateExpression(expression, TODAY)).toBeUndefined();
    },
  );

  it("rejects an invalid current date", () => {
    expect(resolveDateExpression("tomorrow", "2026-13-01")).toBeUndefined();
  });
});
