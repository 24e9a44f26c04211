/**
 * Anyone learns whether the app is up, nothing else: the details tell an attacker which versions to
 * aim at, so they need a session or LIFELINE_HEALTH_TOKEN. Health covers configuration, not only
 * reachability: without AUTH_SECRET in production every route fails, so health is degraded too.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { isProductionServer, env as processEnv, type RawEnv } from "@/core/env";
import { getDatabase, getDb, isDbError } from "@/db/client";
import { getAiRegistry } from "@/lib/ai/registry";
import { isSessionLive } from "@/lib/auth/revocation";
import { getAuthSecret } from "@/lib/auth/secret";
import { decodeRequestSession } from "@/lib/auth/session";
import { jobRunnerKind } from "@/lib/jobs/runner-kind";

export interface Health {
  ok: boolean;
  status: "ok" | "degraded";
  db: "postgres" | "pglite" | null;
  pgvector: string | null;
  model: string;
  embedder: string;
  jobs: ReturnType<typeof jobRunnerKind>;
  node: string;
  warnings: string[];
  failing?: "auth" | "db" | "pgvector";
  error?: string;
}

export type PublicHealth = Pick<Health, "ok" | "status">;

function authConfigProblem(env: RawEnv): string | null {
  try {
    getAuthSecret(env);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

export function productionWarnings(env: RawEnv): string[] {
  if (!isProductionServer(env)) return [];
  const warnings: string[] = [];
  if (jobRunnerKind(env) === "in-process") {
    warnings.push(
      "Memory extraction runs in-process in production (LIFELINE_ALLOW_IN_PROCESS_JOBS=1): fine for one long-lived " +
        "server, but on serverless hosts the work after a response is lost. Set INNGEST_EVENT_KEY and INNGEST_SIGNING_KEY.",
    );
  }
  if (!env.DATABASE_URL?.trim()) {
    warnings.push(
      "The database is embedded PGlite in production (LIFELINE_ALLOW_EMBEDDED_DB=1): fine for one long-lived server " +
        "with a persistent disk, never for serverless or several instances. Set DATABASE_URL.",
    );
  }
  return warnings;
}

/** Never throws. */
export async function checkHealth(env: RawEnv = processEnv()): Promise<Health> {
  const base = {
    ...getAiRegistry().describeProviders(),
    jobs: jobRunnerKind(env),
    node: process.version,
    warnings: productionWarnings(env),
  };
  const auth = authConfigProblem(env);
  const up = (parts: Omit<Health, "ok" | "status" | keyof typeof base>): Health =>
    auth
      ? { ok: false, status: "degraded", ...parts, ...base, failing: "auth", error: auth }
      : { ok: true, status: "ok", ...parts, ...base };
  const down = (parts: Omit<Health, "ok" | "status" | keyof typeof base>): Health => ({
    ok: false,
    status: "degraded",
    ...parts,
    ...base,
    ...(auth ? { failing: "auth", error: auth } : {}),
  });
  let kind: Health["db"] = null;
  try {
    const database = await getDatabase();
    kind = database.kind;
    const rows = await database.query<{ extversion: string }>(
      "SELECT extversion FROM pg_extension WHERE extname = 'vector'",
    );
    const version = rows[0]?.extversion ?? null;
    if (!version) return down({ db: kind, pgvector: null, failing: "pgvector", error: "pgvector is not installed" });
    return up({ db: kind, pgvector: version });
  } catch (error) {
    return down({
      db: kind,
      pgvector: null,
      failing: isDbError(error, "PgvectorError") ? "pgvector" : "db",
      error: error instanceof Error ? error.message : String(error),
    });
  }
}

export function healthToken(env: RawEnv = processEnv()): string | null {
  return env.LIFELINE_HEALTH_TOKEN?.trim() || null;
}

const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();

/** Constant time, over equal-length digests. */
export function hasHealthToken(request: Request, env: RawEnv = processEnv()): boolean {
  const expected = healthToken(env);
  const header = request.headers.get("authorization");
  if (!expected || !header) return false;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  const given = match?.[1] ?? "";
  return timingSafeEqual(digest(given), digest(expected)) && given.length > 0;
}

/** Never throws. */
export async function mayReadHealthDetails(request: Request, env: RawEnv = processEnv()): Promise<boolean> {
  if (hasHealthToken(request, env)) return true;
  try {
    const session = await decodeRequestSession(request);
    return session !== null && (await isSessionLive(await getDb(), session));
  } catch {
    // No AUTH_SECRET in production, or the database is down: no session can be trusted.
    return false;
  }
}

export function healthView(health: Health, detailed: boolean): Health | PublicHealth {
  return detailed ? health : { ok: health.ok, status: health.status };
}
