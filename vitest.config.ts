import path from "node:path";
import { defineConfig } from "vitest/config";

const root = path.resolve(__dirname);
const common = ["node_modules/**", ".next/**", "e2e/**", ".lifeline/**"];

export default defineConfig({
  resolve: { alias: { "@": root } },
  test: {
    environment: "node",
    // Test output stays readable: warnings and errors only (a developer's LOG_LEVEL wins).
    // bcrypt at cost 4: hundreds of registrations stay fast (production refuses below 10; see docs/auth.md).
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? "warn", LIFELINE_PASSWORD_HASH_COST: "4" },
    setupFiles: ["tests/setup.ts"],
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
        },
      },
    ],
  },
});
