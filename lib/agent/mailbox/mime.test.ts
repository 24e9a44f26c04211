import { describe, expect, it } from "vitest";
import { base64url, fromBase64url, toRfc2822 } from "./mime";

describe("toRfc2822", () => {
  it("writes plain-text UTF-8 with To, Cc, Bcc and Subject; CRLF line ends", () => {
    const raw = toRfc2822({
      to: ["Tom <tom@example.com>"],
      cc: ["a@example.com"],
      bcc: [],
      subject: "Hi",
      body: "Line 1\nLine 2",
    });
    expect(raw).toBe(
      [
        "To: Tom <tom@example.com>",
        "Cc: a@example.com",
        "Subject: Hi",
        "MIME-Version: 1.0",
        'Content-Type: text/plain; charset="UTF-8"',
        "Content-Transfer-Encoding: 8bit",
        "",
        "Line 1",
        "Line 2",
      ].join("\r\n"),
    );
  });

  it("encodes a non-ASCII subject and strips line breaks from headers (no header injection)", () => {
    const raw = toRfc2822({
      to: ["tom@example.com\r\nBcc: attacker@example.com"],
      cc: [],
      bcc: [],
      subject: "Café\nBcc: x@example.com",
      body: "ok",
    });
    const headers = raw.split("\r\n\r\n")[0]?.split("\r\n") ?? [];
    expect(headers.filter((line) => line.startsWith("Bcc:"))).toEqual([]);
    expect(headers[0]).toBe("To: tom@example.com Bcc: attacker@example.com");
    expect(headers[1]).toBe(`Subject: =?UTF-8?B?${Buffer.from("Café Bcc: x@example.com").toString("base64")}?=`);
  });

  it("base64url round-trips", () => {
    expect(fromBase64url(base64url("héllo / ? +"))).toBe("héllo / ? +");
    expect(base64url("???>>>")).not.toMatch(/[+/=]/);
  });
});
