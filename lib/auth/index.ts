/**
 * The Auth.js instance. Its config is a function: our database is opened asynchronously by
 * getDb(), and the adapter needs the handle, so each Auth.js request builds its config from the
 * process database (tests swap it with setDatabase()).
 *
 * Only the HTTP handlers are exported: API routes read sessions with lib/auth/session.ts, pages
 * with lib/auth/server.ts, and the browser signs in and out with `next-auth/react`.
 */
import NextAuth from "next-auth";
import { assertSafeDeployment } from "@/core/env";
import { getDb } from "@/db/client";
import { createAuthConfig } from "./config";

export const { handlers } = NextAuth(async () => {
  // Sign-in on a production server with an unsafe configuration fails (core/env.ts).
  assertSafeDeployment();
  return createAuthConfig(await getDb());
});
