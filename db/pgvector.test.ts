import { describe, expect, it } from "vitest";
import { describeDatabaseUrl, isDbError, pgvectorProblem } from "./client";

describe("pgvectorProblem", () => {
  const where = "db.example.com:5432/lifeline";

  it("nothing when pgvector is enabled in the database", () => {
    expect(pgvectorProblem({ installed: "0.8.0", available: "0.8.0" }, where, false)).toBeNull();
  });

  it("a server without pgvector: names DATABASE_URL, the server and the fix, whether migrating or not", () => {
    for (const migrating of [true, false]) {
      const problem = pgvectorProblem({ installed: null, available: null }, where, migrating);
      expect(problem).toMatch(/^DATABASE_URL points at a Postgres server \(db\.example\.com:5432\/lifeline\) without/);
      expect(problem).toContain("Use a Postgres with pgvector");
    }
  });

  it("available but not enabled: fine when the migrations are about to run, else says to run them", () => {
    expect(pgvectorProblem({ installed: null, available: "0.8.0" }, where, true)).toBeNull();
    expect(pgvectorProblem({ installed: null, available: "0.8.0" }, where, false)).toMatch(
      /DATABASE_URL .* has not been migrated.*npm run db:migrate/s,
    );
  });
});

describe("describeDatabaseUrl", () => {
  it("host, port and database — never the user or password", () => {
    expect(describeDatabaseUrl("postgres://me:s3cret@db.example.com:6543/app?sslmode=require")).toBe(
      "db.example.com:6543/app",
    );
  });
});

describe("isDbError", () => {
  it("recognises the error by name, whichever copy of the module made it", () => {
    // Another bundle's PgvectorError: same name, a different class.
    class PgvectorError extends Error {
      override readonly name = "PgvectorError";
    }
    expect(isDbError(new PgvectorError("no vector"), "PgvectorError")).toBe(true);
    expect(isDbError(new Error("no vector"), "PgvectorError")).toBe(false);
    expect(isDbError({ name: "PgvectorError" }, "PgvectorError")).toBe(false);
  });
});
