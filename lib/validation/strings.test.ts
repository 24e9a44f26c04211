import { describe, expect, it } from "vitest";
import { codePointLength, email, hasVisibleText, newPassword, text } from "./strings";

const issues = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.success ? [] : (r.error?.issues.map((i) => i.message) ?? []);

describe("text()", () => {
  const note = text({ max: 5, multiline: true });
  const name = text({ max: 5 });

  it("trims and counts code points, not UTF-16 units", () => {
    expect(note.parse("  abc \n")).toBe("abc");
    expect(note.parse("😀😀😀😀😀")).toBe("😀😀😀😀😀");
    expect(issues(note.safeParse("😀😀😀😀😀😀"))).toEqual(["Must be at most 5 characters"]);
  });

  it("treats whitespace and invisible format characters as empty", () => {
    for (const value of ["", "   ", "\u200B", "\u200D\uFEFF", "\u200E\u200F"]) {
      expect(issues(note.safeParse(value)), JSON.stringify(value)).toEqual(["Must not be empty"]);
    }
    expect(note.parse("a\u200Bb")).toBe("a\u200Bb");
  });

  it("rejects lone surrogates and control characters; multiline keeps line breaks and tabs", () => {
    expect(issues(note.safeParse("a\uD800"))).toEqual(["Contains an invalid character (unpaired surrogate)"]);
    expect(issues(note.safeParse("\uDC00a"))).toEqual(["Contains an invalid character (unpaired surrogate)"]);
    expect(issues(note.safeParse("a\u0000"))).toEqual(["Contains a control character"]);
    expect(issues(note.safeParse("a\u001Bb"))).toEqual(["Contains a control character"]);
    expect(note.parse("a\n\tb")).toBe("a\n\tb");
    expect(issues(name.safeParse("a\nb"))).toEqual(["Contains a control character"]);
  });

  it("single-line text rejects bidi overrides and isolates; right-to-left text itself is fine", () => {
    expect(issues(name.safeParse("a\u202Eb"))).toEqual(["Contains a bidirectional control character"]);
    expect(issues(name.safeParse("a\u2066b"))).toEqual(["Contains a bidirectional control character"]);
    expect(name.parse("שלום")).toBe("שלום");
    expect(note.parse("a\u202Eb")).toBe("a\u202Eb");
  });

  it("rejects non-strings", () => {
    expect(note.safeParse(5).success).toBe(false);
    expect(note.safeParse(null).success).toBe(false);
  });
});

describe("email", () => {
  it("trims and lower-cases", () => {
    expect(email.parse("  Ada@Example.COM ")).toBe("ada@example.com");
  });
  it.each(["", "ada", "ada@", "a\u200Bda@example.com", `${"a".repeat(250)}@example.com`])("rejects %j", (value) => {
    expect(email.safeParse(value).success).toBe(false);
  });
});

describe("newPassword", () => {
  it("counts code points: 8 emoji pass, 7 do not; 200 pass, 201 do not", () => {
    expect(newPassword.safeParse("😀".repeat(8)).success).toBe(true);
    expect(newPassword.safeParse("😀".repeat(7)).success).toBe(false);
    expect(newPassword.safeParse("p".repeat(200)).success).toBe(true);
    expect(newPassword.safeParse("p".repeat(201)).success).toBe(false);
  });
  it("is never trimmed, and must be valid Unicode", () => {
    expect(newPassword.parse("  spaces  ")).toBe("  spaces  ");
    expect(newPassword.safeParse("abcdefgh\uD800").success).toBe(false);
  });
});

describe("helpers", () => {
  it("codePointLength and hasVisibleText", () => {
    expect(codePointLength("a😀b")).toBe(3);
    expect("a😀b".length).toBe(4);
    expect(hasVisibleText("\u200B \t")).toBe(false);
    expect(hasVisibleText("\u200Bx")).toBe(true);
  });
});
