/**
 * The Auth.js handlers (GET and POST /api/auth/*). The config is built per request from the process
 * database (getDb() opens it asynchronously and the adapter needs the handle; tests swap it with
 * setDatabase()).
 *
 * They call @auth/core's `Auth` as next-auth's own handlers do (same defaults: basePath /api/auth,
 * the AUTH_* variables), but with the request at the app's public origin (lib/auth/public-url.ts):
 * next-auth would hand Auth.js Next's URL, `http://localhost:<port>`, whatever AUTH_URL or the
 * trusted Host header say, and every redirect would go there.
 *
 * Only the HTTP handlers are exported: API routes read sessions with lib/auth/session.ts, pages
 * with lib/auth/server.ts, and the browser signs in and out with `next-auth/react`.
 */
import { Auth, setEnvDefaults } from "@auth/core";
import { assertSafeDeployment, env as processEnv } from "@/core/env";
import { getDb } from "@/db/client";
import { createAuthConfig } from "./config";
import { atPublicOrigin, trustsHost } from "./public-url";

async function handle(request: Request): Promise<Response> {
  // Sign-in on a production server with an unsafe configuration fails (core/env.ts).
  assertSafeDeployment();
  const env = processEnv();
  const config = createAuthConfig(await getDb());
  config.basePath = "/api/auth";
  config.trustHost = trustsHost(env);
  setEnvDefaults(env, config, true);
  return Auth(atPublicOrigin(request, env), config);
}

export const handlers = { GET: handle, POST: handle };
