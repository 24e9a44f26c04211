import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import type { Database } from "@/db/client";
import { createTestDatabase, type TestDatabaseTarget } from "./db";

/**
 * The returned handle stands for the database the hooks open, so the block can name it before it
 * exists; it may be used inside hooks and tests only.
 */
export function useTestDatabase(kind: TestDatabaseTarget, options: { per?: "block" | "test" } = {}): Database {
  let database: Database | undefined;
  const [before, after] = options.per === "test" ? [beforeEach, afterEach] : [beforeAll, afterAll];
  before(async () => {
    database = await createTestDatabase(kind);
  });
  after(async () => {
    await database?.close();
  });
  const open = () => {
    if (!database)
      throw new Error("useTestDatabase: the database opens in the block's first hook; use it inside hooks and tests");
    return database;
  };
  return {
    get db() {
      return open().db;
    },
    get kind() {
      return open().kind;
    },
    query: <T extends Record<string, unknown>>(text: string, params?: unknown[]) => open().query<T>(text, params),
    yieldingTo: (before) => open().yieldingTo(before),
    migrate: () => open().migrate(),
    close: () => open().close(),
  };
}
