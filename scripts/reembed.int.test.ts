/**
 * `npm run memories:reembed`: its output with --dry-run and for a run, on both databases (in
 * process), and the script itself as a process on an embedded database.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { countAwaitingEmbedder } from "@/db/queries/reembed";
import { createAiRegistry } from "@/lib/ai/registry";
import { createPgliteTestDataDir, DB_KINDS } from "@/tests/db";
import { createUser, insertMemories, sparseVector } from "@/tests/fixtures/memories";
import { useTestDatabase } from "@/tests/test-database";
import { parseReembedArgs, type ReembedCliContext, runReembed } from "./reembed";

const offline = createAiRegistry({}).embedder;

/** Three memories of "test/old-v0", one without an embedding, one already the offline embedder's. */
async function seed(db: Db): Promise<void> {
  const userId = await createUser(db, "Ada");
  await insertMemories(db, [
    { userId, content: "Prefers green tea", embedding: sparseVector({ 1: 1 }), embeddingModel: "test/old-v0" },
    { userId, content: "Has a cat", embedding: sparseVector({ 2: 1 }), embeddingModel: "test/old-v0" },
    { userId, content: "Walks to work", embedding: sparseVector({ 3: 1 }), embeddingModel: "test/old-v0" },
    { userId, content: "Reads novels", embedding: null, embeddingModel: null },
    { userId, content: "Allergic to peanuts", embedding: sparseVector({ 4: 1 }), embeddingModel: offline.model },
  ]);
}

function capture() {
  let out = "";
  let err = "";
  const stderr = {
    isTTY: false,
    write(text: string) {
      err += text;
      return true;
    },
  } as unknown as NodeJS.WriteStream;
  const context = (db: Db): ReembedCliContext => ({
    db,
    embedder: offline,
    where: "test database",
    stdout: {
      write(text: string) {
        out += text;
      },
    },
    stderr,
  });
  return { context, out: () => out, err: () => err };
}

describe.each(DB_KINDS)("memories:reembed on %s", (kind) => {
  const database = useTestDatabase(kind, { per: "test" });

  beforeEach(async () => {
    await seed(database.db);
  });

  it("--dry-run counts the memories waiting, by the embedder that made them, and writes nothing", async () => {
    const io = capture();
    const code = await runReembed(parseReembedArgs(["--dry-run"]), io.context(database.db));
    expect(code).toBe(0);
    expect(io.out()).toBe(
      [
        "Embedder: offline/wordvec-glove-v3",
        "Database: test database",
        "4 memories are waiting to be re-embedded with offline/wordvec-glove-v3:",
        "         3  test/old-v0",
        "         1  (no embedding)",
        "Dry run: nothing was written.",
        "",
      ].join("\n"),
    );
    expect(io.err()).toBe("");
    expect(await countAwaitingEmbedder(database.db, { model: offline.model })).toBe(4);
  });

  it("re-embeds in batches with a progress bar on stderr and a summary; then there is nothing left", async () => {
    const io = capture();
    const code = await runReembed(parseReembedArgs(["--batch-size", "3"]), io.context(database.db));
    expect(code).toBe(0);
    expect(io.out()).toMatch(
      /^Embedder: offline\/wordvec-glove-v3\nDatabase: test database\nRe-embedded 4 memories with offline\/wordvec-glove-v3 in \d+\.\d s \(2 batches of up to 3\)\.\n$/,
    );
    // Not a terminal: a line per step of 10% (a terminal gets one line redrawn in place).
    expect(io.err()).toBe("re-embed: 0% (0/4)\nre-embed: 75% (3/4)\nre-embed: 100% (4/4)\n");
    expect(await countAwaitingEmbedder(database.db, { model: offline.model })).toBe(0);

    const again = capture();
    expect(await runReembed(parseReembedArgs([]), again.context(database.db))).toBe(0);
    expect(again.out()).toContain(
      "No memory is waiting: every memory with text is embedded by offline/wordvec-glove-v3.",
    );
    expect(again.err()).toBe("");
  });
});

describe("memories:reembed flags", () => {
  it("rejects a batch size that is not a positive integer", () => {
    expect(parseReembedArgs([])).toMatchObject({ batchSize: 64, dryRun: false, force: false });
    expect(() => parseReembedArgs(["--batch-size", "0"])).toThrow("--batch-size must be an integer from 1 to 2048");
    expect(() => parseReembedArgs(["--batch-size", "1.5"])).toThrow("--batch-size");
    expect(() => parseReembedArgs(["--nope"])).toThrow();
  });
});

describe("the script as a process, on an embedded database", () => {
  const run = promisify(execFile);
  let dataDir = "";
  const env = () => {
    const { DATABASE_URL: _d, OPENAI_API_KEY: _k, OPENAI_BASE_URL: _b, ...rest } = process.env;
    return { ...rest, LIFELINE_DATA_DIR: dataDir };
  };
  const script = (...args: string[]) =>
    run(path.join("node_modules", ".bin", "tsx"), ["scripts/reembed.ts", ...args], { env: env() }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );

  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "lifeline-reembed-"));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it("--dry-run uses LIFELINE_DATA_DIR and the offline embedder, and refuses a data directory another process has open", async () => {
    const database = await createPgliteTestDataDir(dataDir);
    await seed(database.db);

    const open = await script("--dry-run");
    expect(open.code).toBe(2);
    expect(open.stderr).toContain("looks open in another process");
    await database.close();

    const dry = await script("--dry-run");
    expect(dry).toMatchObject({ code: 0, stderr: "" });
    expect(dry.stdout).toBe(
      [
        "Embedder: offline/wordvec-glove-v3",
        `Database: pglite ${dataDir}`,
        "4 memories are waiting to be re-embedded with offline/wordvec-glove-v3:",
        "         3  test/old-v0",
        "         1  (no embedding)",
        "Dry run: nothing was written.",
        "",
      ].join("\n"),
    );

    const done = await script();
    expect(done.code).toBe(0);
    expect(done.stdout).toContain("Re-embedded 4 memories with offline/wordvec-glove-v3");
  });
});
