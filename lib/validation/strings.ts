/**
 * Lengths are code points, as Postgres' char_length counts. Every request string starts from
 * `requestString()`, so a NUL (Postgres text cannot hold it) or an unpaired surrogate (no UTF-8) is a
 * 400 naming the field, not a 500; lib/validation/schemas.test.ts checks every exported schema.
 */
import { z } from "zod";

const LONE_SURROGATE = /\p{Surrogate}/u;
/** Control characters (C0, DEL, C1), except tab, line feed and carriage return. */
const CONTROL_MULTILINE = /(?![\t\n\r])\p{Cc}/u;
const CONTROL_SINGLE_LINE = /\p{Cc}/u;
/** Bidi embedding/override/isolate controls: they can make a one-line value display as something else. */
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/;
const INVISIBLE = /[\s\p{Cf}]/gu;

export function codePointLength(value: string): number {
  let n = 0;
  for (const _ of value) n++;
  return n;
}

export function hasVisibleText(value: string): boolean {
  return value.replace(INVISIBLE, "").length > 0;
}

export const NUL_MESSAGE = "Contains a NUL character";
export const SURROGATE_MESSAGE = "Contains an invalid character (unpaired surrogate)";

export function requestStringIssue(value: string): string | null {
  if (LONE_SURROGATE.test(value)) return SURROGATE_MESSAGE;
  if (value.includes("\u0000")) return NUL_MESSAGE;
  return null;
}

/** Use `text()` for anything a person writes. */
export function requestString(params?: Parameters<typeof z.string>[0]) {
  return z.string(params).superRefine((value, ctx) => {
    const issue = requestStringIssue(value);
    if (issue) ctx.addIssue({ code: "custom", message: issue });
  });
}

export interface TextOptions {
  min?: number;
  max: number;
  multiline?: boolean;
}

function unicodeIssue(value: string, multiline: boolean): string | null {
  if (LONE_SURROGATE.test(value)) return SURROGATE_MESSAGE;
  if ((multiline ? CONTROL_MULTILINE : CONTROL_SINGLE_LINE).test(value)) return "Contains a control character";
  if (!multiline && BIDI_CONTROL.test(value)) return "Contains a bidirectional control character";
  return null;
}

export function text({ min = 1, max, multiline = false }: TextOptions) {
  return z
    .string()
    .trim()
    .superRefine((value, ctx) => {
      const issue = unicodeIssue(value, multiline);
      if (issue) {
        ctx.addIssue({ code: "custom", message: issue });
        return;
      }
      const length = codePointLength(value);
      if (min > 0 && !hasVisibleText(value)) ctx.addIssue({ code: "custom", message: "Must not be empty" });
      else if (length < min) ctx.addIssue({ code: "custom", message: `Must be at least ${min} characters` });
      else if (length > max) ctx.addIssue({ code: "custom", message: `Must be at most ${max} characters` });
    });
}

/** Lower-cased: accounts are unique on lower(email). */
export const email = requestString()
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: "Enter a valid email address" }).max(254, "Must be at most 254 characters"));

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 200;

/** Never trimmed. */
export const newPassword = z.string().superRefine((value, ctx) => {
  const issue = requestStringIssue(value);
  if (issue) {
    ctx.addIssue({ code: "custom", message: issue });
    return;
  }
  const length = codePointLength(value);
  if (length < PASSWORD_MIN) ctx.addIssue({ code: "custom", message: `Must be at least ${PASSWORD_MIN} characters` });
  else if (length > PASSWORD_MAX)
    ctx.addIssue({ code: "custom", message: `Must be at most ${PASSWORD_MAX} characters` });
});

/**
 * NUL is let through on purpose: it never reaches SQL (only the hash does), and older passwords may
 * contain it, so refusing it here could lock someone out.
 */
export const existingPassword = z
  .string()
  .min(1, "Required")
  .refine((value) => !LONE_SURROGATE.test(value), SURROGATE_MESSAGE)
  .refine((value) => codePointLength(value) <= PASSWORD_MAX, `Must be at most ${PASSWORD_MAX} characters`);
