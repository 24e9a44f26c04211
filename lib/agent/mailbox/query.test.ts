import { describe, expect, it } from "vitest";
import { parseMailQuery } from "./query";

describe("parseMailQuery (the demo mailbox's Gmail-like search)", () => {
  it("reads operators, quoted phrases and bare words", () => {
    expect(parseMailQuery('from:maya subject:"dinner plans" lease is:unread newer_than:2w in:inbox')).toEqual({
      from: ["maya"],
      to: [],
      subject: ["dinner plans"],
      words: ["lease"],
      labels: ["UNREAD", "INBOX"],
      withoutLabels: [],
      // Gmail's newer_than takes d, m and y only: "2w" is ignored, as Gmail would reject it.
      newerThanDays: null,
    });
  });

  it("is:read excludes UNREAD; newer_than takes days, months and years; label: keeps a user label's case", () => {
    const filter = parseMailQuery("is:read newer_than:7d label:Work label:inbox to:tom@example.com");
    expect(filter.withoutLabels).toEqual(["UNREAD"]);
    expect(filter.newerThanDays).toBe(7);
    expect(filter.labels).toEqual(["Work", "INBOX"]);
    expect(filter.to).toEqual(["tom@example.com"]);
    expect(parseMailQuery("newer_than:2m").newerThanDays).toBe(60);
    expect(parseMailQuery("newer_than:1y").newerThanDays).toBe(365);
  });

  it("an empty query matches everything; OR/AND are not words", () => {
    expect(parseMailQuery("   ")).toMatchObject({ from: [], words: [], labels: [] });
    expect(parseMailQuery("maya OR tom").words).toEqual(["maya", "tom"]);
  });

  it("an unknown operator is searched as words", () => {
    expect(parseMailQuery("cc:ines").words).toEqual(["ines"]);
  });
});
