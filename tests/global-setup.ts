/**
 * Global set-up of the integration and production projects (vitest.config.ts): names this run's
 * database templates (tests/db.ts makes them on first use) and removes them at the end of the run.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { dropPostgresTemplate, POSTGRES_TEMPLATE_MARKER } from "./db";

export default function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(tmpdir(), "lifeline-test-templates-"));
  const postgres = `lifeline_template_${process.pid}_${randomBytes(4).toString("hex")}`;
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
