/**
 * The secret that encrypts session cookies (Auth.js JWTs).
 * - `AUTH_SECRET` set → used, always.
 * - Not set, production (`next start`, NODE_ENV=production) → error: a deployment must bring its own.
 * - Not set, development/test → a random secret generated once and kept in `.lifeline/auth-secret`
 *   (git-ignored), so `npm run dev` works with no configuration and sessions survive restarts.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { env as processEnv, type RawEnv } from "@/core/env";

export const AUTH_SECRET_FILE = path.join(process.cwd(), ".lifeline", "auth-secret");

const persisted = new Map<string, string>();

function readOrCreatePersistedSecret(file: string): string {
  const cached = persisted.get(file);
  if (cached) return cached;
  let secret: string;
  try {
    secret = readFileSync(file, "utf8").trim();
  } catch {
    mkdirSync(path.dirname(file), { recursive: true });
    secret = randomBytes(32).toString("base64url");
    try {
      // "wx": never overwrite — if another process won the race, use its secret.
      writeFileSync(file, `${secret}\n`, { flag: "wx", mode: 0o600 });
    } catch {
      secret = readFileSync(file, "utf8").trim();
    }
  }
  if (!secret) throw new Error(`${file} is empty: delete it to generate a new secret`);
  persisted.set(file, secret);
  return secret;
}

export function getAuthSecret(env: RawEnv = processEnv(), file: string = AUTH_SECRET_FILE): string {
  const fromEnv = env.AUTH_SECRET?.trim();
  if (fromEnv) return fromEnv;
  if (env.NODE_ENV === "production") {
    throw new Error(
      "AUTH_SECRET is not set. Production needs a secret of its own to encrypt sessions: " +
        "generate one with `openssl rand -base64 32` and set AUTH_SECRET (see docs/auth.md).",
    );
  }
  return readOrCreatePersistedSecret(file);
}
