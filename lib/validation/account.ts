import { z } from "zod";
import { email, existingPassword, newPassword, text } from "./strings";

export const NAME_MAX = 100;
export const name = text({ max: NAME_MAX });

export const registerBody = z.strictObject({ email, password: newPassword, name });
export type RegisterBody = z.infer<typeof registerBody>;

/** What the Credentials provider reads from the sign-in form (other form fields are Auth.js's own). */
export const signInCredentials = z.object({ email, password: existingPassword });

export const accountPatchBody = z
  .strictObject({
    name: name.nullable().optional(),
    email: email.optional(),
    memoryEnabledDefault: z.boolean().optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: "Provide at least one of name, email, memoryEnabledDefault",
  });
export type AccountPatchBody = z.infer<typeof accountPatchBody>;

export const passwordChangeBody = z.strictObject({ currentPassword: existingPassword, newPassword });
