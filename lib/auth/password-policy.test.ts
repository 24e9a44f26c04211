import { describe, expect, it } from "vitest";
import commonPasswords from "./common-passwords.json";
import { assertAcceptableNewPassword, newPasswordProblem } from "./password-policy";

describe("newPasswordProblem", () => {
  it("ships 1,000 common passwords of at least 8 characters, lower-cased", () => {
    expect(commonPasswords).toHaveLength(1000);
    for (const p of commonPasswords) {
      expect([...p].length).toBeGreaterThanOrEqual(8);
      expect(p).toBe(p.toLowerCase());
    }
  });

  it.each(["password", "12345678", "Password1", "QWERTYUIOP", "iloveyou", "baseball"])(
    "refuses the common password %j",
    (p) => expect(newPasswordProblem(p)).toMatch(/common/),
  );

  it.each([
    "        ",
    "\t\t\t\t\t\t\t\t",
    "\u00a0\u2003\u3000        ",
    "\u200b\u200b\u200b\u200b\u200b\u200b\u200b\u200b",
  ])("refuses whitespace-only %j", (p) => expect(newPasswordProblem(p)).toMatch(/spaces/));

  it.each(["a-good-password", "correct horse battery staple", "  leading and trailing spaces  "])("accepts %j", (p) => {
    expect(newPasswordProblem(p)).toBeNull();
  });

  it("throws a 400 naming the field", () => {
    expect(() => assertAcceptableNewPassword("password", "body.newPassword")).toThrow(
      expect.objectContaining({ code: "bad_request", fields: { "body.newPassword": expect.any(String) } }),
    );
  });
});
