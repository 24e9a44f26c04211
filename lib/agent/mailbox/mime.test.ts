import { describe, expect, it } from "vitest";
import { composeMessage, formatAddress, parseMessage, recipientParts } from "./mime";

describe("recipientParts", () => {
  it("splits one recipient into name and address: a comma or quotes in the name stay in the name", () => {
    expect(recipientParts("Maya Chen <maya@example.com>")).toEqual({ name: "Maya Chen", address: "maya@example.com" });
    expect(recipientParts("Dupont, René <rene@example.fr>")).toEqual({
      name: "Dupont, René",
      address: "rene@example.fr",
    });
    expect(recipientParts('"Dupont, René" <rene@example.fr>')).toEqual({
      name: "Dupont, René",
      address: "rene@example.fr",
    });
    expect(recipientParts(" tom@example.com ")).toEqual({ name: "", address: "tom@example.com" });
  });
});

describe("formatAddress", () => {
  it("quotes a name that would otherwise read as two addresses", () => {
    expect(formatAddress({ name: "Dupont, René", address: "rene@example.fr" })).toBe(
      '"Dupont, René" <rene@example.fr>',
    );
    expect(formatAddress({ name: "Maya Chen", address: "maya@example.com" })).toBe("Maya Chen <maya@example.com>");
    expect(formatAddress({ name: "", address: "maya@example.com" })).toBe("maya@example.com");
  });
});

describe("composeMessage → parseMessage", () => {
  it("round-trips recipients, subject, threading headers and body; CRLF line ends", async () => {
    const raw = await composeMessage({
      to: ["Dupont, René <rene@example.fr>"],
      cc: ["Zoë <zoe@example.se>"],
      bcc: ["audit@example.com"],
      subject: "Re: Café à 10h",
      body: "Line 1\nLine 2 — fin",
      thread: { threadId: "t1", inReplyTo: "<b@x.org>", references: ["<a@x.org>", "<b@x.org>"] },
    });
    const text = raw.toString("latin1");
    expect(text).not.toMatch(/(?<!\r)\n/);
    expect(text).toMatch(/^Bcc: audit@example\.com\r$/m);
    const parsed = await parseMessage(raw);
    expect(parsed).toMatchObject({
      to: ['"Dupont, René" <rene@example.fr>'],
      cc: ["Zoë <zoe@example.se>"],
      subject: "Re: Café à 10h",
      inReplyTo: "<b@x.org>",
      references: ["<a@x.org>", "<b@x.org>"],
      text: "Line 1\nLine 2 — fin",
    });
    expect(parsed.messageId).toMatch(/^<[^<>\s]+@[^<>\s]+>$/);
  });

  it("a line break in a subject or address never starts a new header line", async () => {
    const raw = await composeMessage({
      to: ["tom@example.com\r\nBcc: attacker@example.com"],
      cc: [],
      bcc: [],
      subject: "Café\nBcc: x@example.com",
      body: "ok",
    });
    const headers = raw.toString("latin1").split("\r\n\r\n")[0]?.split("\r\n") ?? [];
    expect(headers.filter((line) => /^bcc:/i.test(line))).toEqual([]);
  });
});
