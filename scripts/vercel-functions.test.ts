import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { functionProblems, VERCEL_LIMITS, vercelFunctions } from "./vercel-functions";

/** A build output with one API function linked from two routes, and a project it maps files from. */
function fixture() {
  const root = mkdtempSync(path.join(tmpdir(), "vercel-functions-"));
  const output = path.join(root, ".vercel", "output");
  const api = path.join(output, "functions", "api", "chat.func");
  mkdirSync(api, { recursive: true });
  mkdirSync(path.join(root, "node_modules", "@electric-sql", "pglite"), { recursive: true });
  writeFileSync(path.join(root, "node_modules", "@electric-sql", "pglite", "pglite.wasm"), Buffer.alloc(1000));
  writeFileSync(path.join(root, "chunk.js"), Buffer.alloc(500));
  writeFileSync(path.join(api, "___next_launcher.cjs"), Buffer.alloc(100));
  writeFileSync(
    path.join(api, ".vc-config.json"),
    JSON.stringify({
      runtime: "nodejs24.x",
      maxDuration: 300,
      filePathMap: {
        "node_modules/@electric-sql/pglite/pglite.wasm": "node_modules/@electric-sql/pglite/pglite.wasm",
        ".next/server/chunk.js": "chunk.js",
      },
    }),
  );
  symlinkSync("chat.func", path.join(output, "functions", "api", "inngest.func"));
  return { root, output };
}

describe("vercelFunctions", () => {
  it("counts a function once, with every route linked to it, and the bytes of its files and mapped files", () => {
    const { root, output } = fixture();
    const [fn, ...rest] = vercelFunctions(output, root);
    expect(rest).toEqual([]);
    expect(fn).toMatchObject({
      name: path.join("api", "chat.func"),
      routes: ["/api/chat", "/api/inngest"],
      runtime: "nodejs24.x",
      maxDuration: 300,
      files: 4,
      pgliteFiles: 1,
      wordVectorFiles: 0,
    });
    // The launcher, the config itself, the wasm and the chunk.
    expect(fn?.bytes).toBeGreaterThan(1600);
  });
});

describe("functionProblems", () => {
  const fn = {
    name: "api/chat.func",
    routes: ["/api/chat"],
    runtime: "nodejs24.x",
    maxDuration: 300,
    files: 10,
    bytes: 20e6,
    pgliteFiles: 0,
    wordVectorFiles: 0,
  };
  const expected = { runtime: "nodejs24.x", postgres: true, apiEmbedder: true };

  it("has none for a lean function on the expected runtime", () => {
    expect(functionProblems(fn, expected)).toEqual([]);
  });

  it("names each broken limit and what the build's configuration does not need", () => {
    const problems = functionProblems(
      {
        ...fn,
        runtime: "nodejs20.x",
        bytes: VERCEL_LIMITS.bytes + 1,
        maxDuration: 800,
        pgliteFiles: 3,
        wordVectorFiles: 1,
      },
      expected,
    );
    expect(problems).toEqual([
      "runs on nodejs20.x, not nodejs24.x",
      expect.stringMatching(/over Vercel's 250 MB/),
      "asks for maxDuration 800 s, over Hobby's 300 s",
      "carries PGlite (3 files)",
      "carries the offline word vectors",
    ]);
    // Built without DATABASE_URL or an API embedder, both are needed.
    expect(
      functionProblems(
        { ...fn, pgliteFiles: 3, wordVectorFiles: 1 },
        { ...expected, postgres: false, apiEmbedder: false },
      ),
    ).toEqual([]);
  });
});
