import { describe, expect, it } from "vitest";
import { dateGroupLabel, groupByDate } from "./date-groups";

const now = new Date("2026-12-01T10:00:00Z"); // Tuesday 1 December 2026

describe("dateGroupLabel", () => {
  it.each([
    ["2026-12-01T00:00:01Z", "Today"],
    ["2026-11-30T23:59:59Z", "Yesterday"],
    ["2026-11-30T00:00:00Z", "Yesterday"],
    ["2026-11-29T12:00:00Z", "Previous 7 days"],
    ["2026-11-24T12:00:00Z", "Previous 7 days"],
    ["2026-11-23T12:00:00Z", "Previous 30 days"],
    ["2026-11-01T12:00:00Z", "Previous 30 days"],
    ["2026-10-31T12:00:00Z", "October 2026"],
    ["2025-12-25T12:00:00Z", "December 2025"],
  ])("%s → %s (UTC)", (at, label) => {
    expect(dateGroupLabel(new Date(at), now, null)).toBe(label);
  });

  it("counts calendar days in the user's time zone", () => {
    // 23:30 UTC on 30 November is already 1 December in Auckland (UTC+13), and still 30 November in New York.
    const lateEvening = new Date("2026-11-30T23:30:00Z");
    expect(dateGroupLabel(lateEvening, now, "Pacific/Auckland")).toBe("Today");
    expect(dateGroupLabel(lateEvening, now, "America/New_York")).toBe("Yesterday");
    expect(dateGroupLabel(new Date("2026-11-01T02:00:00Z"), now, "America/Los_Angeles")).toBe("October 2026");
  });

  it("puts a time a little in the future (another clock) under Today", () => {
    expect(dateGroupLabel(new Date("2026-12-01T10:05:00Z"), now, null)).toBe("Today");
  });
});

describe("groupByDate", () => {
  it("groups consecutive items, keeping their order", () => {
    const items = ["2026-12-01T09:00:00Z", "2026-12-01T08:00:00Z", "2026-11-30T08:00:00Z", "2026-09-02T08:00:00Z"];
    expect(groupByDate(items, (at) => new Date(at), now, null)).toEqual([
      { label: "Today", items: items.slice(0, 2) },
      { label: "Yesterday", items: [items[2]] },
      { label: "September 2026", items: [items[3]] },
    ]);
  });
});
