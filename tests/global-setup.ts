/**
 * Global set-up of the integration project. The PGlite template is made here, before any worker
 * starts: a worker that died making it (V8 aborts now and then under PGlite's WebAssembly) would
 * leave every other file waiting for a file that never comes.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { dropPostgresTemplate, migratedPgliteDump, PGLITE_TEMPLATE_FILE, POSTGRES_TEMPLATE_MARKER } from "./db";

export default async function setup(project: TestProject) {
  const pglite = await migratedPgliteDump();
  const dir = mkdtempSync(path.join(tmpdir(), "lifeline-test-templates-"));
  const postgres = `lifeline_template_${process.pid}_${randomBytes(4).toString("hex")}`;
  await writeFile(path.join(dir, PGLITE_TEMPLATE_FILE), pglite);
  project.provide("testTemplates", { dir, postgres });
  return async () => {
    try {
      // Only when a test process made it: a run on PGlite alone never reaches for Postgres here.
      const made = readFileSync(path.join(dir, POSTGRES_TEMPLATE_MARKER), "utf8");
      await dropPostgresTemplate(made);
    } catch (error) {
      if ((error as { code?: string }).code !== "ENOENT") throw error;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}
