/** Request bodies of the account routes that need the account holder's confirmation. */
import { z } from "zod";
import { name } from "@/lib/validation/account";
import { email, existingPassword } from "@/lib/validation/strings";
import { timeZoneSchema } from "@/lib/validation/time-zone";

/**
 * PATCH /api/account. Changing the email needs `currentPassword` (password accounts) or a recent
 * sign-in (Google-only accounts) — lib/auth/reauth.ts.
 */
export const accountUpdateBody = z
  .strictObject({
    name: name.nullable().optional(),
    email: email.optional(),
    memoryEnabledDefault: z.boolean().optional(),
    timeZone: timeZoneSchema.optional(),
    currentPassword: existingPassword.optional(),
  })
  .refine(
    (body) => [body.name, body.email, body.memoryEnabledDefault, body.timeZone].some((value) => value !== undefined),
    { message: "Provide at least one of name, email, memoryEnabledDefault, timeZone" },
  );
export type AccountUpdateBody = z.infer<typeof accountUpdateBody>;

/** DELETE /api/account: `currentPassword` for password accounts; Google-only accounts send `{}`. */
export const accountDeleteBody = z.strictObject({ currentPassword: existingPassword.optional() });
