/**
 * `npm run db:migrate` — applies db/migrations to the Postgres at DATABASE_URL
 * (or, without it, to the embedded PGlite database under .lifeline/).
 */
import { openDatabase, optionsFromEnv } from "./client";

async function main() {
  const options = { ...optionsFromEnv(), migrate: true };
  const where =
    options.kind === "postgres" ? new URL(options.url).host + new URL(options.url).pathname : options.dataDir;
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
