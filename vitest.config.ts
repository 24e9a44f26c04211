import { availableParallelism } from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

const root = path.resolve(__dirname);
const common = ["node_modules/**", ".next/**", "e2e/**", ".lifeline/**", "tests/production/**", "tests/dev/**"];

export default defineConfig({
  resolve: { alias: { "@": root } },
  test: {
    environment: "node",
    // bcrypt at cost 4 keeps hundreds of registrations fast (production refuses below 10).
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? "warn", LIFELINE_PASSWORD_HASH_COST: "4" },
    setupFiles: ["tests/setup.ts"],
    // Integration files mostly wait on Postgres and child servers: two workers on 2 cores measured 491 s → 340 s.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // `project` is the CLI's filter, which vitest reads from the config but does not type there.
    ...({ project: ["unit", "integration"] } as object),
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["**/*.test.ts"], exclude: [...common, "**/*.int.test.ts"] },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["**/*.int.test.ts"],
          exclude: common,
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // PGlite's WebAssembly under V8's tier-up now and then aborts a worker (SIGTRAP; nodejs/node#64500,
          // electric-sql/pglite#1053). Liftoff alone compiles nothing in the background.
          execArgv: ["--liftoff-only"],
          globalSetup: ["tests/global-setup.ts"],
        },
      },
      {
        extends: true,
        // Minutes on a 2-core machine, so outside `npm test`.
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
        // Runs after `next build` in scripts/test.sh.
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
