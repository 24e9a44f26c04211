import { getDatabase } from "@/db/client";
import { describeProviders } from "@/lib/ai/registry";
import { jobRunnerKind } from "@/lib/jobs/runner-kind";

export interface Health {
  ok: boolean;
  db: "postgres" | "pglite" | null;
  pgvector: string | null;
  model: string;
  embedder: string;
  jobs: ReturnType<typeof jobRunnerKind>;
  /** The part that is down, when ok is false. */
  failing?: "db" | "pgvector";
  error?: string;
}

/** Checks every part a chat turn depends on; never throws. */
export async function checkHealth(): Promise<Health> {
  const base = { ...describeProviders(), jobs: jobRunnerKind() };
  let kind: Health["db"] = null;
  try {
    const database = await getDatabase();
    kind = database.kind;
    const rows = await database.query<{ extversion: string }>(
      "SELECT extversion FROM pg_extension WHERE extname = 'vector'",
    );
    const version = rows[0]?.extversion ?? null;
    if (!version) {
      return { ok: false, db: kind, pgvector: null, ...base, failing: "pgvector", error: "pgvector is not installed" };
    }
    return { ok: true, db: kind, pgvector: version, ...base };
  } catch (error) {
    return {
      ok: false,
      db: kind,
      pgvector: null,
      ...base,
      failing: "db",
      error: error instanceof Error ? error.message : String(error),
    };
  }
}
