/** Needs no Vercel account; not part of `npm test` (a full build takes minutes). */
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Client } from "pg";
import { functionProblems, megabytes, VERCEL_LIMITS, vercelFunctions } from "./vercel-functions";

const ROOT = path.resolve(__dirname, "..");
const VERCEL_DIR = path.join(ROOT, ".vercel");
const CLI_DIR = path.join(VERCEL_DIR, "cli");
const ENV_FILE = path.join(VERCEL_DIR, ".env.production.local");

/** vercel@64 depends on sandbox@4.4.0, which the registry here does not serve (4.5.0 installs and works). */
const CLI = { vercel: "64.0.2", overrides: { sandbox: "4.5.0" } };

const SCRATCH_DATABASE = "postgres://postgres@127.0.0.1:5432/lifeline_vercel_check";

/** The variables a production build reads, with stand-ins that make it a build "with DATABASE_URL and an API key". */
const BUILD_DEFAULTS: Record<string, string> = {
  DATABASE_URL: SCRATCH_DATABASE,
  OPENAI_API_KEY: "sk-check-vercel-not-a-key",
  AUTH_SECRET: "check-vercel-only-0123456789abcdef0123456789abcdef",
  INNGEST_EVENT_KEY: "check-vercel-event-key",
  INNGEST_SIGNING_KEY: "signkey-prod-0123456789abcdef0123456789abcdef",
};
const PASSED_THROUGH = [
  ...Object.keys(BUILD_DEFAULTS),
  "OPENAI_BASE_URL",
  "DATABASE_URL_UNPOOLED",
  "POSTGRES_URL_NON_POOLING",
];

function log(line: string) {
  process.stdout.write(`${line}\n`);
}

function installCli(): string {
  const bin = path.join(CLI_DIR, "node_modules", ".bin", "vercel");
  if (existsSync(bin)) return bin;
  log(`Installing the Vercel CLI ${CLI.vercel} into ${path.relative(ROOT, CLI_DIR)} …`);
  mkdirSync(CLI_DIR, { recursive: true });
  writeFileSync(
    path.join(CLI_DIR, "package.json"),
    `${JSON.stringify({ private: true, dependencies: { vercel: CLI.vercel }, overrides: CLI.overrides }, null, 2)}\n`,
  );
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"], {
    cwd: CLI_DIR,
    stdio: "inherit",
  });
  return bin;
}

function readEnvFile(file: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const match = /^\s*([A-Z0-9_]+)\s*=\s*(.*?)\s*$/.exec(line);
    if (match?.[1]) values[match[1]] = (match[2] ?? "").replace(/^"(.*)"$/, "$1");
  }
  return values;
}

function buildEnv(): Record<string, string> {
  if (!existsSync(ENV_FILE)) {
    const values = Object.fromEntries(
      PASSED_THROUGH.flatMap((name) => {
        const value = process.env[name]?.trim() || BUILD_DEFAULTS[name];
        return value ? [[name, value]] : [];
      }),
    );
    writeFileSync(
      ENV_FILE,
      `${Object.entries(values)
        .map(([name, value]) => `${name}=${value}`)
        .join("\n")}\n`,
    );
    log(`Wrote ${path.relative(ROOT, ENV_FILE)} (delete it to start again from the environment and defaults).`);
  }
  return readEnvFile(ENV_FILE);
}

async function ensureScratchDatabase(url: string) {
  if (url !== SCRATCH_DATABASE) return;
  const admin = new URL(url);
  const name = admin.pathname.slice(1);
  admin.pathname = "/postgres";
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (!rowCount) await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
}

async function main() {
  mkdirSync(VERCEL_DIR, { recursive: true });
  if (!existsSync(path.join(VERCEL_DIR, "project.json"))) {
    copyFileSync(path.join(__dirname, "vercel-project.json"), path.join(VERCEL_DIR, "project.json"));
  }
  const env = buildEnv();
  if (env.DATABASE_URL) await ensureScratchDatabase(env.DATABASE_URL);
  const vercel = installCli();

  log("vercel build --prod --yes …");
  const build = spawnSync(vercel, ["build", "--prod", "--yes"], { cwd: ROOT, stdio: "inherit", env: process.env });
  if (build.status !== 0) process.exit(build.status ?? 1);

  const engines = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { engines: { node: string } })
    .engines.node;
  const expected = {
    runtime: `nodejs${engines.split(".")[0]}.x`,
    postgres: Boolean(env.DATABASE_URL),
    apiEmbedder: Boolean(env.OPENAI_API_KEY || env.OPENAI_BASE_URL),
  };
  const functions = vercelFunctions(path.join(VERCEL_DIR, "output"), ROOT);
  log(
    `\nBuilt with DATABASE_URL: ${expected.postgres ? "yes" : "no"}, an API embedder: ${expected.apiEmbedder ? "yes" : "no"}. ` +
      `Limits: ${megabytes(VERCEL_LIMITS.bytes)} per function, maxDuration ≤ ${VERCEL_LIMITS.maxDurationSeconds} s, runtime ${expected.runtime}.\n`,
  );
  log("| function | routes | runtime | maxDuration | files | size | PGlite | word vectors |");
  log("| --- | --: | --- | --: | --: | --: | --: | --: |");
  let failed = 0;
  for (const fn of functions) {
    log(
      `| ${fn.name} | ${fn.routes.length} | ${fn.runtime} | ${fn.maxDuration ?? "default"} | ${fn.files} | ${megabytes(fn.bytes)} | ${fn.pgliteFiles} | ${fn.wordVectorFiles} |`,
    );
    for (const problem of functionProblems(fn, expected)) {
      failed += 1;
      process.stderr.write(`✖ ${fn.name} ${problem}\n`);
    }
  }
  log(failed === 0 ? "\n✔ Every function is within Vercel's limits and carries only what this build needs." : "");
  process.exit(failed === 0 ? 0 : 1);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
