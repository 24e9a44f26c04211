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
    ["next Friday", "2026-12-04"],
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

  it.each([
    ["a week on Tuesday", "2026-12-08"],
    ["two weeks on Saturday", "2026-12-19"],
    ["a week from next Wednesday", "2026-12-09"],
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
