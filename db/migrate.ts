/**
 * `--build` runs first in `npm run build`, so a deployment's database is ready before its first request; under
 * db/client.ts's advisory lock, concurrent builds apply each migration once. Without DATABASE_URL it does nothing.
 */
import { env } from "../core/env";
import { describeDatabaseUrl, openDatabase, optionsFromEnv } from "./client";

async function main() {
  const build = process.argv.includes("--build");
  if (build && !env().DATABASE_URL) {
    console.log("No DATABASE_URL: no migrations at build time (the embedded database migrates on first use).");
    return;
  }
  const options = { ...optionsFromEnv(), migrate: true };
  const where =
    options.kind === "postgres" ? describeDatabaseUrl(options.migrationUrl ?? options.url) : options.dataDir;
  const started = Date.now();
  const database = await openDatabase(options);
  const [applied] = await database.query<{ count: string }>(
    "SELECT count(*)::text AS count FROM drizzle.__drizzle_migrations",
  );
  await database.close();
  console.log(
    `Migrations applied to ${options.kind} (${where}): ${applied?.count ?? 0} in total, ${Date.now() - started} ms.`,
  );
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
