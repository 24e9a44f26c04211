import { createUser } from "@/db/queries/users";
import { route } from "@/lib/api/route";
import { hashPassword } from "@/lib/auth/password";
import { registerBody } from "@/lib/validation/account";

/** POST /api/auth/register {email, password, name} → 201 {user}; 409 conflict:email. Sign in afterwards. */
export const POST = route({ auth: "public", body: registerBody, status: 201 }, async ({ db, body }) => {
  const passwordHash = await hashPassword(body.password);
  const user = await createUser(db, { email: body.email, name: body.name, passwordHash });
  return { user: { id: user.id, email: user.email, name: user.name } };
});
