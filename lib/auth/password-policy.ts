/**
 * Which new passwords are refused, on top of the length rules of lib/validation/strings.ts
 * (8–200 characters): passwords of only whitespace, and the 1,000 most common passwords of at
 * least 8 characters (lib/auth/common-passwords.json: the first 1,000 such entries, lower-cased,
 * of the "10 million password list — top 1M" from SecLists, MIT licence), compared without case.
 * Checked at registration and password change (app/api/auth/register, app/api/account/password).
 */
import { badRequest } from "@/core/errors";
import commonPasswords from "./common-passwords.json";

const COMMON = new Set<string>(commonPasswords);

export function newPasswordProblem(password: string): string | null {
  if (/^[\s\p{Cf}]*$/u.test(password)) return "Must not be only spaces";
  if (COMMON.has(password.trim().toLowerCase())) {
    return "This password is one of the most common ones and easy to guess — choose another";
  }
  return null;
}

export function assertAcceptableNewPassword(password: string, field: string): void {
  const problem = newPasswordProblem(password);
  if (problem) throw badRequest({ [field]: problem });
}
