import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AUTH_SECRET_FILE, getAuthSecret } from "./secret";

const tmpFile = () => path.join(mkdtempSync(path.join(tmpdir(), "lifeline-secret-")), ".lifeline", "auth-secret");

describe("getAuthSecret", () => {
  it("defaults to .lifeline/auth-secret under the working directory", () => {
    expect(AUTH_SECRET_FILE).toBe(path.join(process.cwd(), ".lifeline", "auth-secret"));
  });

  it("uses AUTH_SECRET when set, in any environment", () => {
    const file = tmpFile();
    expect(getAuthSecret({ AUTH_SECRET: " from-env ", NODE_ENV: "production" }, file)).toBe("from-env");
    expect(getAuthSecret({ AUTH_SECRET: "from-env", NODE_ENV: "development" }, file)).toBe("from-env");
  });

  it("refuses to run in production without AUTH_SECRET, even when a dev secret file exists", () => {
    const file = tmpFile();
    getAuthSecret({ NODE_ENV: "development" }, file);
    expect(() => getAuthSecret({ NODE_ENV: "production" }, file)).toThrow(/AUTH_SECRET is not set/);
    expect(() => getAuthSecret({ NODE_ENV: "production", AUTH_SECRET: "  " }, file)).toThrow(/AUTH_SECRET is not set/);
  });

  it("in development, generates a secret once, owner-readable only, and keeps using it", () => {
    const file = tmpFile();
    const first = getAuthSecret({ NODE_ENV: "development" }, file);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(file, "utf8").trim()).toBe(first);
    expect(statSync(file).mode & 0o077).toBe(0);
    expect(getAuthSecret({ NODE_ENV: "development" }, file)).toBe(first);
    expect(getAuthSecret({ NODE_ENV: "test" }, file)).toBe(first);
  });

  it("uses a secret file that already exists (another process, an earlier run)", () => {
    const file = tmpFile();
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, "already-there-0123456789\n");
    expect(getAuthSecret({ NODE_ENV: "development" }, file)).toBe("already-there-0123456789");
  });
});
