import { describe, expect, it } from "vitest";
import { SIGN_IN_NOTICES, signInNoticeText, signInPathWith } from "./sign-in-notice";

describe("sign-in notices", () => {
  it("shows the page's own text for each fixed code", () => {
    expect(signInNoticeText("signed-out-everywhere")).toMatch(/^You were signed out everywhere/);
    expect(signInNoticeText("account-deleted")).toBe(
      "Your account was deleted, with all its chats, memories and notes.",
    );
  });

  it.each([
    undefined,
    null,
    "",
    "Your account was hacked, call +1 555 0100",
    "<script>alert(1)</script>",
    "ACCOUNT-DELETED",
    "constructor",
    "__proto__",
    "toString",
    ["account-deleted"],
  ])("shows nothing for %j", (code) => {
    expect(signInNoticeText(code)).toBeNull();
  });

  it("links to the sign-in page only, with a code the page knows", () => {
    for (const code of Object.keys(SIGN_IN_NOTICES) as (keyof typeof SIGN_IN_NOTICES)[]) {
      const url = new URL(signInPathWith(code), "https://lifeline.example");
      expect(url.origin).toBe("https://lifeline.example");
      expect(url.pathname).toBe("/login");
      expect(signInNoticeText(url.searchParams.get("notice"))).toBe(SIGN_IN_NOTICES[code]);
    }
  });
});
