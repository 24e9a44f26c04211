import { sql } from "drizzle-orm";
import { Client } from "pg";
import { describe, expect, it, vi } from "vitest";
import { EMBEDDING_DIMENSIONS } from "@/core/config";
import { logger } from "@/core/logger";
import { cosineSimilarity } from "@/lib/memory/retrieval/score";
import { createTestDatabase, DB_KINDS, TEST_DATABASE_URL } from "@/tests/db";
import { useTestDatabase } from "@/tests/test-database";
import { selectRows } from "./client";
import { memories, users } from "./schema";

/** A unit vector pointing mostly along axis `i`, tilted towards axis `j` by `tilt`. */
function axisVector(i: number, j: number, tilt: number): number[] {
  const v = new Array<number>(EMBEDDING_DIMENSIONS).fill(0);
  v[i] = Math.cos(tilt);
  v[j] = Math.sin(tilt);
  return v;
}

describe.each(DB_KINDS)("database on %s", (kind) => {
  const database = useTestDatabase(kind);

  it("applies every migration, with pgvector and all tables", async () => {
    const ext = await database.query<{ extversion: string }>(
      "SELECT extversion FROM pg_extension WHERE extname = 'vector'",
    );
    expect(ext[0]?.extversion).toMatch(/^0\.8\./);
    const tables = await database.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
    );
    expect(tables.map((t) => t.table_name)).toEqual([
      "access_tokens",
      "accounts",
      "answer_ratings",
      "conversation_title_jobs",
      "conversations",
      "demo_mail_messages",
      "demo_mailboxes",
      "gmail_operations",
      "imports",
      "mcp_calls",
      "memories",
      "memory_events",
      "memory_extractions",
      "memory_stats",
      "memory_usage",
      "message_notes",
      "messages",
      "prompt_debug",
      "rate_limits",
      "revoked_sessions",
      "sessions",
      "transcriptions",
      "users",
      "verification_tokens",
    ]);
    // Retrieval's candidate pass reads one covering btree (migration 0025), on both databases; no vector
    // index: a graph walk filtered to one user is incomplete by nature, and it cost every insert.
    const memoryIndexes = await database.query<{ indexname: string }>(
      "SELECT indexname FROM pg_indexes WHERE tablename = 'memories' AND indexname IN ('memories_embedding_hnsw_idx', 'memories_user_model_idx', 'memories_user_code_idx') ORDER BY indexname",
    );
    expect(memoryIndexes.map((index) => index.indexname)).toEqual(["memories_user_code_idx"]);
    const anyVectorIndex = await database.query<{ indexdef: string }>(
      "SELECT indexdef FROM pg_indexes WHERE tablename = 'memories' AND indexdef ~ '(hnsw|ivfflat)'",
    );
    expect(anyVectorIndex).toEqual([]);
    // The interrupted-answer sweep's partial index (migration 0008): only the rows it looks for.
    const partial = await database.query<{ indexdef: string }>(
      "SELECT indexdef FROM pg_indexes WHERE indexname = 'messages_streaming_idx'",
    );
    expect(partial[0]?.indexdef).toMatch(/\(updated_at\) WHERE \(?status = 'streaming'/);
    // Migration 0007 dropped the corpus statistics and their triggers; migration 0032's memory_stats triggers are
    // the only ones on memories.
    const triggers = await database.query<{ tgname: string }>(
      "SELECT tgname FROM pg_trigger WHERE tgrelid = 'memories'::regclass AND NOT tgisinternal ORDER BY tgname",
    );
    expect(triggers.map((t) => t.tgname)).toEqual([
      "memory_stats_delete",
      "memory_stats_insert",
      "memory_stats_truncate",
      "memory_stats_update",
    ]);
    const functions = await database.query<{ proname: string }>(
      "SELECT proname FROM pg_proc WHERE proname LIKE 'memory_%corpus%' OR proname = 'memory_in_corpus'",
    );
    expect(functions).toEqual([]);
  });

  it("is idempotent: migrating again changes nothing", async () => {
    const { migrateDatabase } = await import("./client");
    await expect(migrateDatabase(database)).resolves.toBeUndefined();
  });

  it("orders memories by cosine distance (<=>)", async () => {
    const { db } = database;
    const [user] = await db
      .insert(users)
      .values({ email: `vec-${kind}@example.com` })
      .returning();
    if (!user) throw new Error("no user");
    // Three memories at increasing angles from axis 0.
    await db.insert(memories).values([
      { userId: user.id, content: "far", provenance: "user_created", embedding: axisVector(0, 1, 1.2) },
      { userId: user.id, content: "near", provenance: "user_created", embedding: axisVector(0, 1, 0.1) },
      { userId: user.id, content: "middle", provenance: "user_created", embedding: axisVector(0, 1, 0.6) },
    ]);
    const query = `[${axisVector(0, 1, 0).join(",")}]`;
    const rows = await selectRows<{ content: string; distance: number }>(
      db,
      sql`SELECT content, (embedding <=> ${query}::halfvec(1536)) AS distance FROM memories WHERE user_id = ${user.id} ORDER BY distance`,
    );
    expect(rows.map((r) => r.content)).toEqual(["near", "middle", "far"]);
    // Half precision: the distance of the stored (rounded) components, as the reference computes it.
    expect(Number(rows[0]?.distance)).toBeCloseTo(1 - cosineSimilarity(axisVector(0, 1, 0.1), axisVector(0, 1, 0)), 6);
    expect(Number(rows[0]?.distance)).toBeCloseTo(1 - Math.cos(0.1), 5);
  });

  it("enforces importance between 0 and 1", async () => {
    const { db } = database;
    const [user] = await db
      .insert(users)
      .values({ email: `check-${kind}@example.com` })
      .returning();
    if (!user) throw new Error("no user");
    await expect(
      db.insert(memories).values({ userId: user.id, content: "x", provenance: "user_created", importance: 1.5 }),
    ).rejects.toThrow();
  });

  it("keeps a full-text search vector of title and content", async () => {
    const { db } = database;
    const [user] = await db
      .insert(users)
      .values({ email: `fts-${kind}@example.com` })
      .returning();
    if (!user) throw new Error("no user");
    await db
      .insert(memories)
      .values({ userId: user.id, title: "Tea", content: "Prefers green tea", provenance: "user_created" });
    const rows = await selectRows<{ content: string }>(
      db,
      sql`SELECT content FROM memories WHERE user_id = ${user.id} AND search_vector @@ plainto_tsquery('english', 'teas')`,
    );
    expect(rows.map((r) => r.content)).toEqual(["Prefers green tea"]);
  });
});

describe("database on postgres: a connection ended by the server", () => {
  it("is replaced by the pool instead of crashing the process", async () => {
    const database = await createTestDatabase("postgres");
    const crashes: unknown[] = [];
    const onUncaught = (error: unknown) => crashes.push(error);
    process.on("uncaughtException", onUncaught);
    try {
      await database.query("SELECT 1");
      // End every other session on this database, as a server restart or failover would.
      const [{ name } = { name: "" }] = await database.query<{ name: string }>("SELECT current_database() AS name");
      const killer = new Client({ connectionString: TEST_DATABASE_URL });
      await killer.connect();
      await killer.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", [name]);
      await killer.end();
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await database.query<{ one: number }>("SELECT 1 AS one")).toEqual([{ one: 1 }]);
      expect(crashes).toEqual([]);
    } finally {
      process.off("uncaughtException", onUncaught);
      await database.close();
    }
  });

  it("is logged as the error's type, code and message, never the client that held it", async () => {
    const database = await createTestDatabase("postgres");
    const warn = vi.spyOn(logger, "warn").mockImplementation(() => {});
    try {
      await database.query("SELECT 1");
      const [{ name } = { name: "" }] = await database.query<{ name: string }>("SELECT current_database() AS name");
      const killer = new Client({ connectionString: TEST_DATABASE_URL });
      await killer.connect();
      await killer.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", [name]);
      await killer.end();
      await vi.waitFor(() => expect(warn).toHaveBeenCalled());
      expect(warn.mock.calls).toEqual([
        [
          {
            error: {
              type: "DatabaseError",
              code: "57P01",
              message: "terminating connection due to administrator command",
            },
          },
          "an idle database connection was closed",
        ],
      ]);
      expect(JSON.stringify(warn.mock.calls)).not.toContain(name);
    } finally {
      warn.mockRestore();
      await database.close();
    }
  });
});
