/** `npm run memories:reembed` — re-embeds every memory the configured embedder did not embed (docs/retrieval.md). */
import { existsSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { type Db, getDatabase, optionsFromEnv } from "@/db/client";
import { countAwaitingByEmbedder } from "@/db/queries/reembed";
import { progressBar } from "@/eval/progress";
import { getAiRegistry } from "@/lib/ai/registry";
import type { MemoryEmbedder } from "@/lib/memory/store/memory-store";
import { DEFAULT_REEMBED_BATCH_SIZE, type ReembedResult, reembedMemories } from "@/lib/memory/store/reembed";

const HELP = `npm run memories:reembed -- [flags]

  --batch-size N   memories per embedder call and per database write (default ${DEFAULT_REEMBED_BATCH_SIZE})
  --dry-run        only count the memories waiting, by the embedder that made them; write nothing
  --force          with the embedded database: run although its data directory looks open (see below)
  --help

Re-embeds, with the configured embedder (OPENAI_API_KEY / OPENAI_BASE_URL / LIFELINE_EMBEDDING_MODEL,
else the offline one), every memory whose embedding another embedder made. Database: DATABASE_URL,
else the embedded PGlite database (LIFELINE_DATA_DIR, default .lifeline/pglite).

Resumable: stop it (Ctrl-C stops after the current batch) or let it fail, and run it again — it
continues with what is left. With Postgres it is safe while the app serves: a memory edited
meanwhile keeps its edit. The embedded database can be opened by one process only: stop the app
first (or just restart the app, which re-embeds in the background at start). --force is for a
data directory a crashed process left marked as open.

Exit code: 0 done (or nothing to do), 1 failed or some memories could not be embedded, 2 bad
flags or the database in use, 130 interrupted.`;

export interface ReembedCliOptions {
  batchSize: number;
  dryRun: boolean;
  force: boolean;
  help: boolean;
}

export function parseReembedArgs(argv: readonly string[]): ReembedCliOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      "batch-size": { type: "string" },
      "dry-run": { type: "boolean" },
      force: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
    allowPositionals: false,
  });
  const raw = values["batch-size"];
  const batchSize = raw === undefined ? DEFAULT_REEMBED_BATCH_SIZE : Number(raw);
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 2048) {
    throw new Error(`--batch-size must be an integer from 1 to 2048, got "${raw}"`);
  }
  return { batchSize, dryRun: values["dry-run"] ?? false, force: values.force ?? false, help: values.help ?? false };
}

export interface ReembedCliContext {
  db: Db;
  embedder: MemoryEmbedder;
  where: string;
  stdout: { write(text: string): unknown };
  /** The progress bar's stream (redrawn in place on a terminal, a line per 10% otherwise). */
  stderr: NodeJS.WriteStream;
  signal?: AbortSignal;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export async function runReembed(options: ReembedCliOptions, context: ReembedCliContext): Promise<number> {
  const { db, embedder, stdout } = context;
  stdout.write(`Embedder: ${embedder.model}\nDatabase: ${context.where}\n`);

  if (options.dryRun) {
    const groups = await countAwaitingByEmbedder(db, embedder.model);
    const total = groups.reduce((sum, group) => sum + group.count, 0);
    if (total === 0) {
      stdout.write(`No memory is waiting: every memory with text is embedded by ${embedder.model}.\n`);
    } else {
      stdout.write(`${plural(total, "memory is", "memories are")} waiting to be re-embedded with ${embedder.model}:\n`);
      for (const group of groups) {
        stdout.write(`  ${String(group.count).padStart(8)}  ${group.embeddingModel ?? "(no embedding)"}\n`);
      }
    }
    stdout.write("Dry run: nothing was written.\n");
    return 0;
  }

  const bar = progressBar(context.stderr);
  let shown = 0;
  let barStarted = false;
  const started = performance.now();
  let result: ReembedResult;
  try {
    result = await reembedMemories(db, embedder, {
      batchSize: options.batchSize,
      signal: context.signal,
      onProgress: (progress) => {
        if (progress.total === 0) return;
        if (progress.batches === 0) {
          bar.start(progress.total, "re-embed");
          barStarted = true;
        } else bar.tick(progress.processed - shown);
        shown = progress.processed;
      },
    });
  } finally {
    if (barStarted) bar.done();
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);

  if (result.total === 0 && result.processed === 0) {
    stdout.write(`No memory is waiting: every memory with text is embedded by ${embedder.model}.\n`);
    return 0;
  }
  stdout.write(
    `Re-embedded ${plural(result.reembedded, "memory", "memories")} with ${embedder.model} in ${seconds} s ` +
      `(${plural(result.batches, "batch", "batches")} of up to ${options.batchSize}).\n`,
  );
  if (result.skipped > 0) {
    stdout.write(
      `Left ${plural(result.skipped, "memory", "memories")} that changed while being re-embedded ` +
        "(an edit re-embeds a memory itself; if another embedder made the change, run this again).\n",
    );
  }
  if (result.failed > 0) {
    stdout.write(`${plural(result.failed, "memory", "memories")} could not be embedded and still wait:\n`);
    for (const error of result.errors) stdout.write(`  ${error.memoryId}: ${error.message}\n`);
    if (result.errors.length < result.failed) stdout.write(`  … and ${result.failed - result.errors.length} more\n`);
  }
  if (result.aborted) {
    stdout.write("Interrupted: run it again to continue with the memories that are left.\n");
    return 130;
  }
  return result.failed > 0 ? 1 : 0;
}

export async function main(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let options: ReembedCliOptions;
  try {
    options = parseReembedArgs(argv);
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : error}\n\n${HELP}`);
    return 2;
  }
  if (options.help) {
    console.log(HELP);
    return 0;
  }

  const selected = optionsFromEnv(env);
  let where: string;
  if (selected.kind === "postgres") {
    const url = new URL(selected.url);
    where = `postgres ${url.host}${url.pathname}`;
  } else {
    const dataDir = selected.dataDir ?? "(in memory)";
    const relative = path.relative(process.cwd(), dataDir);
    where = `pglite ${relative && !relative.startsWith("..") ? relative : dataDir}`;
    // PGlite marks its data directory open with postmaster.pid while a process has it open.
    if (selected.dataDir && existsSync(path.join(selected.dataDir, "postmaster.pid")) && !options.force) {
      console.error(
        `The embedded database ${where} looks open in another process (the app?); it can be opened by one process only.\n` +
          "Stop the app and run this again — or just restart the app: it re-embeds in the background at start.\n" +
          "If no process has it open (a crash left it marked), pass --force.",
      );
      return 2;
    }
  }

  const controller = new AbortController();
  const interrupt = () => {
    if (controller.signal.aborted) process.exit(130);
    console.error("\nStopping after the current batch (Ctrl-C again to quit at once)…");
    controller.abort();
  };
  process.on("SIGINT", interrupt);
  process.on("SIGTERM", interrupt);
  const database = await getDatabase();
  try {
    return await runReembed(options, {
      db: database.db,
      embedder: getAiRegistry().embedder,
      where,
      stdout: process.stdout,
      stderr: process.stderr,
      signal: controller.signal,
    });
  } finally {
    process.off("SIGINT", interrupt);
    process.off("SIGTERM", interrupt);
    await database.close();
  }
}

const invokedDirectly = process.argv[1] !== undefined && /scripts[\\/]reembed\.ts$/.test(process.argv[1]);
if (invokedDirectly) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(`Re-embedding failed: ${error instanceof Error ? error.message : error}`);
      console.error("What was re-embedded stays; run it again to continue.");
      process.exitCode = 1;
    },
  );
}
