import { availableParallelism } from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

const root = path.resolve(__dirname);
// tests/production needs the production build (`next build`): only `--project production` runs it.
// tests/dev runs `next dev`: only `--project dev-server` runs it.
const common = ["node_modules/**", ".next/**", "e2e/**", ".lifeline/**", "tests/production/**", "tests/dev/**"];

export default defineConfig({
  resolve: { alias: { "@": root } },
  test: {
    environment: "node",
    // Test output stays readable: warnings and errors only (a developer's LOG_LEVEL wins).
    // bcrypt at cost 4: hundreds of registrations stay fast (production refuses below 10; see docs/auth.md).
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? "warn", LIFELINE_PASSWORD_HASH_COST: "4" },
    setupFiles: ["tests/setup.ts"],
    // Vitest's default is one worker per CPU but one; on a 2-core machine that is a single worker,
    // while integration files mostly wait on Postgres and child servers: two run side by side
    // (measured: 491 s → 340 s for the whole suite, same results).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // A bare `vitest run` (before the build, in scripts/test.sh) runs these two; `--project production`
    // replaces them. `project` is the CLI's filter, which vitest also reads from the config (its
    // Vitest.matchesProjectFilter) but does not type there: hence the spread.
    ...({ project: ["unit", "integration"] } as object),
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["**/*.test.ts"], exclude: [...common, "**/*.int.test.ts"] },
      },
      {
        extends: true,
        // Integration tests run against real databases (PGlite and Postgres) and real HTTP servers.
        test: {
          name: "integration",
          include: ["**/*.int.test.ts"],
          exclude: common,
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // PGlite's WebAssembly under V8's optimising tier-up now and then aborts a worker (SIGTRAP:
          // a CHECK in V8's JIT-page registry; nodejs/node#64500, electric-sql/pglite#1053), which
          // failed a whole CI run. Liftoff alone compiles no code in the background and frees none.
          execArgv: ["--liftoff-only"],
          // Names the run's migrated database templates and removes them afterwards (tests/db.ts).
          globalSetup: ["tests/global-setup.ts"],
        },
      },
      {
        extends: true,
        // `next dev` itself, in Chromium (tests/dev/*): minutes on a 2-core machine, compiling on
        // first load, so outside `npm test`; `npx vitest run --project dev-server` runs it.
        test: {
          name: "dev-server",
          include: ["tests/dev/**/*.dev.test.ts"],
          exclude: common.filter((pattern) => pattern !== "tests/dev/**"),
          testTimeout: 600_000,
          hookTimeout: 180_000,
        },
      },
      {
        extends: true,
        // The production build under `next start` (tests/production/*): after `next build` in
        // scripts/test.sh. Excluded from the projects above and from a bare `vitest run`.
        test: {
          name: "production",
          include: ["tests/production/**/*.prod.test.ts"],
          exclude: common.filter((pattern) => pattern !== "tests/production/**"),
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
