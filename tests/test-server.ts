import { afterAll, beforeAll } from "vitest";
import type { Database } from "@/db/client";
import type { TestDatabaseTarget } from "./db";
import { startTestServer, type TestServer } from "./http-server";
import { useTestDatabase } from "./test-database";

export interface TestServerContext {
  readonly database: Database;
  readonly server: TestServer;
}

export function useTestServer(kind: TestDatabaseTarget): TestServerContext {
  const context = { database: useTestDatabase(kind) } as { database: Database; server: TestServer };
  beforeAll(async () => {
    context.server = await startTestServer({ database: context.database });
  });
  afterAll(async () => {
    await context.server?.close();
  });
  return context;
}
