/**
 * `npm run db:migrate` — applies db/migrations to the Postgres at DATABASE_URL (or, without it, to
 * the embedded PGlite database under .lifeline/).
 *
 * `--build` is the build's first step (`npm run build` is `tsx db/migrate.ts --build && next build`): with DATABASE_URL
 * it migrates that Postgres, so a deployment's database is ready before its first request — over the
 * direct connection when DATABASE_URL_UNPOOLED or POSTGRES_URL_NON_POOLING is set, under the
 * advisory lock of db/client.ts, so two builds (or a build and a LIFELINE_AUTO_MIGRATE=1
 * server) at the same time apply each migration once; without DATABASE_URL it does nothing (the
 * embedded database migrates on first use). A database without pgvector fails the build with a
 * message naming DATABASE_URL and the fix.
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
