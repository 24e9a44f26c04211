/**
 * The integration run's own set-up (tests/global-setup.ts, vitest.config.ts). In a CI run a worker
 * died of a V8 abort while it alone was making the PGlite template; every other file then waited for
 * that template until its hooks timed out (42 files failed, 50 minutes).
 */
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { PGLITE_TEMPLATE_FILE } from "./db";

const templates = inject("testTemplates");

describe("the integration run", () => {
  it("has the PGlite template on disk before any file opens a database, and no lock to wait on", () => {
    expect(templates).toBeDefined();
    const dir = templates?.dir ?? "";
    expect(existsSync(path.join(dir, PGLITE_TEMPLATE_FILE))).toBe(true);
    expect(readdirSync(dir).filter((name) => name.endsWith(".lock"))).toEqual([]);
  });

  it("runs its workers with Liftoff alone (PGlite's WebAssembly under V8's optimising tier aborts a worker now and then)", () => {
    expect(process.execArgv).toContain("--liftoff-only");
  });
});
