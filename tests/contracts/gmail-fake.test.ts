/**
 * The contract fake's own rules can fail: each one catches the message that breaks it (the hand-built
 * MIME Lifeline once sent broke most of them), and passes a message that follows it.
 */
import { describe, expect, it } from "vitest";
import { messageViolations } from "./gmail-fake";

const crlf = (lines: string[]) => Buffer.from(lines.join("\r\n"), "utf8");

const CLEAN = [
  "To: =?UTF-8?Q?Zo=C3=AB?= <zoe@example.se>",
  "Subject: =?UTF-8?Q?R=C3=A9union?=",
  "Message-ID: <a1@example.com>",
  "In-Reply-To: <a0@example.com>",
  "References: <z@example.com> <a0@example.com>",
  "",
  "Bonjour",
];

describe("messageViolations", () => {
  it("passes a message that follows RFC 5322 and RFC 2047", () => {
    expect(messageViolations(crlf(CLEAN))).toEqual([]);
  });

  it("an encoded word over 75 characters, and its line over 76 (RFC 2047 §2)", () => {
    const word = `=?UTF-8?B?${Buffer.from("é".repeat(200)).toString("base64")}?=`;
    const found = messageViolations(crlf([`Subject: ${word}`, "", "x"]));
    expect(found.some((v) => v.startsWith("RFC 2047 §2: an encoded word of"))).toBe(true);
    expect(found.some((v) => v.includes("with encoded words has"))).toBe(true);
  });

  it("raw UTF-8 in a header (RFC 5322 §2.2)", () => {
    expect(messageViolations(crlf(["To: Zoë <zoe@example.se>", "", "x"]))[0]).toMatch(/outside printable US-ASCII/);
  });

  it("an encoded word inside a quoted string (RFC 2047 §5)", () => {
    expect(messageViolations(crlf(['To: "=?UTF-8?Q?Zo=C3=AB?=" <zoe@example.se>', "", "x"]))).toEqual([
      "RFC 2047 §5: an encoded word inside a quoted string in To",
    ]);
  });

  it("a line over 998 characters and a bare LF (RFC 5322 §2.1, §2.1.1)", () => {
    const found = messageViolations(Buffer.from(`Subject: x\r\n\r\n${"a".repeat(1200)}\nend`));
    expect(found).toEqual([
      "RFC 5322 §2.1: a bare CR or LF (lines must end in CRLF)",
      expect.stringMatching(/^RFC 5322 §2\.1\.1: line 3 has 1204 characters/),
    ]);
  });

  it("threading headers that are not msg-ids (RFC 5322 §3.6.4)", () => {
    expect(messageViolations(crlf(["In-Reply-To: a0@example.com", "References: <z@example.com> a0", "", "x"]))).toEqual(
      [
        "RFC 5322 §3.6.4: In-Reply-To is not one msg-id: a0@example.com",
        "RFC 5322 §3.6.4: References is not a list of msg-ids",
      ],
    );
  });
});
