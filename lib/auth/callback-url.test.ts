import { describe, expect, it } from "vitest";
import { safeCallbackUrl, signInErrorMessage } from "./callback-url";

describe("safeCallbackUrl", () => {
  it.each(["/", "/chat/123", "/settings?tab=account", "/memories#top"])("keeps the site path %s", (url) => {
    expect(safeCallbackUrl(url)).toBe(url);
  });

  it.each([
    "https://evil.example/",
    "//evil.example",
    "/\\evil.example",
    "javascript:alert(1)",
    "chat",
    "/a\nb",
    "/login",
    "/login?callbackUrl=/",
    "/register",
    "",
    undefined,
    ["/chat"],
  ])("replaces %j with /", (url) => {
    expect(safeCallbackUrl(url)).toBe("/");
  });
});

describe("signInErrorMessage", () => {
  it("maps Auth.js error codes to messages", () => {
    expect(signInErrorMessage(null)).toBeNull();
    expect(signInErrorMessage("CredentialsSignin")).toBe("Wrong email or password.");
    expect(signInErrorMessage("OAuthAccountNotLinked")).toMatch(/connect Google from Settings/);
    expect(signInErrorMessage("Something")).toBe("Sign-in failed. Please try again.");
  });
});
