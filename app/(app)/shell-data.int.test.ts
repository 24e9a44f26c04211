import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { logger } from "@/core/logger";
import { DB_KINDS } from "@/tests/db";
import { createUser } from "@/tests/fixtures/memories";
import { useTestDatabase } from "@/tests/test-database";
import { loadShellData } from "./shell-data";

describe.each(DB_KINDS)("the app layout's data on %s", (kind) => {
  const database = useTestDatabase(kind);
  let userId: string;

  beforeAll(async () => {
    userId = await createUser(database.db, "Ada");
  });

  const getDb = async () => database.db;

  it("loads the account and the conversations of the signed-in user", async () => {
    const shell = await loadShellData({ getDb, getSessionUserId: async () => userId });
    expect(shell.kind).toBe("ok");
    if (shell.kind === "ok") expect(shell.account.name).toBe("Ada");
  });

  it("is signed out without a session, and for a session whose account is gone", async () => {
    expect(await loadShellData({ getDb, getSessionUserId: async () => null })).toEqual({ kind: "signed-out" });
    expect(await loadShellData({ getDb, getSessionUserId: async () => randomUUID() })).toEqual({ kind: "signed-out" });
  });

  it("says the database is unreachable — not signed out — when it does not answer", async () => {
    const logged = vi.spyOn(logger, "error").mockImplementation(() => {});
    try {
      const unreachable = async () => {
        throw new Error("connect ECONNREFUSED 127.0.0.1:5432");
      };
      expect(await loadShellData({ getDb: unreachable, getSessionUserId: async () => userId })).toEqual({
        kind: "database-unavailable",
      });
      // The session check itself needs the database (revocation): its failure is the same answer.
      expect(await loadShellData({ getDb: unreachable, getSessionUserId: unreachable })).toEqual({
        kind: "database-unavailable",
      });
    } finally {
      logged.mockRestore();
    }
  });

  it("leaves any other failure to the error page when the database answers", async () => {
    const bug = new Error("a bug, not an outage");
    await expect(
      loadShellData({
        getDb,
        getSessionUserId: async () => {
          throw bug;
        },
      }),
    ).rejects.toBe(bug);
  });
});
