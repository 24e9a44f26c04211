/**
 * @auth/core's `Auth` called as next-auth's handlers do, but at the public origin: next-auth would
 * hand Auth.js `http://localhost:<port>` whatever AUTH_URL says, and every redirect would go there.
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
