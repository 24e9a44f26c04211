/**
 * What the production build's functions carry: the file traces (`.next/**\/*.nft.json`) that a
 * deployment copies into its serverless functions. Vercel adds the instrumentation hook's trace to
 * every function and outputFileTracingExcludes does not reach it, so what only one configuration
 * needs must never be reached by the tracer at all, only traced in by next.config.ts's
 * conditionalTracing (outputFileTracingIncludes, routes only):
 * - PGlite (db/client.ts loads it behind `turbopackIgnore`) is in every route's trace of a build
 *   made without DATABASE_URL, and in no trace of one made with it;
 * - the offline embedder's word vectors (lib/offline/word-vectors.ts reads them behind
 *   `turbopackIgnore`) are in every route's trace of a build made without an API embedder, and in
 *   no trace of one made with one (OPENAI_API_KEY or OPENAI_BASE_URL);
 * - the instrumentation hook's own trace holds neither, whatever the build;
 * - gpt-tokenizer's tables are in no bundled chunk (one copy, in node_modules);
 * - every route that hashes or checks a password carries @node-rs/bcrypt's native binding (the
 *   `.node` file of this platform's package), so a deployment can load it;
 * - no trace holds the whole project (the symptom of a file read the tracer cannot scope).
 *
 * The build's configuration is read back from `.next/required-server-files.json`, so this checks
 * whichever build is there: scripts/test.sh's (neither variable) or one made with
 * `DATABASE_URL=… OPENAI_API_KEY=… npx next build` (`npm run check:vercel` makes one).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { EMBEDDED_DATABASE_FILES, OFFLINE_ASSETS } from "@/next.config";
import { assertProductionBuild } from "./next-server";

const DIST = path.join(process.cwd(), ".next");
const ASSETS = path.join(process.cwd(), "lib", "offline", "assets") + path.sep;
const PGLITE = path.join(process.cwd(), "node_modules", "@electric-sql") + path.sep;
const INSTRUMENTATION = path.join("server", "instrumentation.js.nft.json");

interface Trace {
  /** Relative to .next, e.g. "server/app/api/chat/route.js.nft.json". */
  name: string;
  /** Absolute paths of the files it lists. */
  files: string[];
}

function traces(): Trace[] {
  return (readdirSync(DIST, { recursive: true, encoding: "utf8" }) as string[])
    .filter((name) => name.endsWith(".nft.json") && !name.startsWith(`cache${path.sep}`))
    .map((name) => {
      const json = JSON.parse(readFileSync(path.join(DIST, name), "utf8")) as { files: string[] };
      const dir = path.dirname(path.join(DIST, name));
      return { name, files: json.files.map((file) => path.resolve(dir, file)) };
    });
}

/** What the build traced in by configuration (next.config.ts conditionalTracing), read back from the build. */
function tracedIn(): string[] {
  const { config } = JSON.parse(readFileSync(path.join(DIST, "required-server-files.json"), "utf8")) as {
    config: { outputFileTracingIncludes?: Record<string, string[]> };
  };
  return config.outputFileTracingIncludes?.["/**"] ?? [];
}

/** A real file of the package (not Turbopack's hashed link to it under .next/node_modules). */
const listsPglite = (trace: Trace) =>
  trace.files.some((file) => file.startsWith(PGLITE) && statSync(file, { throwIfNoEntry: false })?.isFile());
const listsAsset = (trace: Trace) => trace.files.some((file) => file.startsWith(ASSETS));
const isApiRoute = (trace: Trace) => trace.name.startsWith(path.join("server", "app", "api"));

describe("the production build's file traces", () => {
  let all: Trace[];
  beforeAll(() => {
    assertProductionBuild();
    all = traces();
  });

  it("has traces to check (the instrumentation hook's and the routes')", () => {
    expect(all.map((t) => t.name)).toContain(INSTRUMENTATION);
    expect(all.filter((t) => t.name.endsWith(`route.js.nft.json`)).length).toBeGreaterThan(10);
  });

  it("carries PGlite only where the embedded database can run, never through the instrumentation hook", () => {
    const withPglite = all.filter(listsPglite).map((t) => t.name);
    expect(withPglite).not.toContain(INSTRUMENTATION);
    if (EMBEDDED_DATABASE_FILES.every((files) => tracedIn().includes(files))) {
      expect(all.filter((t) => isApiRoute(t) && !listsPglite(t)).map((t) => t.name)).toEqual([]);
    } else {
      expect(withPglite).toEqual([]);
    }
  });

  it("carries the word vectors only where the offline embedder can run, never through the instrumentation hook", () => {
    const withAsset = all.filter(listsAsset).map((t) => t.name);
    expect(withAsset).not.toContain(INSTRUMENTATION);
    if (tracedIn().includes(OFFLINE_ASSETS)) {
      expect(all.filter((t) => isApiRoute(t) && !listsAsset(t)).map((t) => t.name)).toEqual([]);
    } else {
      expect(withAsset).toEqual([]);
    }
  });

  it("bundles gpt-tokenizer's tables into no chunk (they load once, from node_modules)", () => {
    // Three consecutive tokens of the o200k_base ranks (gpt-tokenizer/esm/bpeRanks/o200k_base.js).
    const ranks = /" agregado",\s*" flinke",\s*" Ici"/;
    const chunks = path.join(DIST, "server", "chunks");
    const bundled = (readdirSync(chunks, { recursive: true, encoding: "utf8" }) as string[]).filter(
      (name) => name.endsWith(".js") && ranks.test(readFileSync(path.join(chunks, name), "utf8")),
    );
    expect(bundled).toEqual([]);
    const table = path.join(process.cwd(), "node_modules", "gpt-tokenizer", "esm", "bpeRanks", "o200k_base.js");
    expect(ranks.test(readFileSync(table, "utf8"))).toBe(true);
  });

  it("carries the native bcrypt binding in every route that hashes or checks a password", () => {
    const binding = path.join(process.cwd(), "node_modules", "@node-rs") + path.sep;
    const hashing = ["auth/[...nextauth]", "auth/register", "account/password"].map((route) =>
      path.join("server", "app", "api", ...route.split("/"), "route.js.nft.json"),
    );
    for (const name of hashing) {
      const trace = all.find((t) => t.name === name);
      expect(trace, name).toBeDefined();
      const native = trace?.files.filter((file) => file.startsWith(binding) && file.endsWith(".node")) ?? [];
      expect(native.length, `${name} carries a .node file of @node-rs/bcrypt-<platform>`).toBeGreaterThan(0);
      expect(native.every((file) => statSync(file, { throwIfNoEntry: false })?.isFile())).toBe(true);
    }
  });

  it("traces no function with the whole project in it", () => {
    const project = (file: string) => !file.includes(`${path.sep}node_modules${path.sep}`);
    const broad = all
      .map((t) => ({
        name: t.name,
        files: t.files.filter((file) => project(file) && (/\.test\.tsx?$/.test(file) || /README\.md$/.test(file))),
      }))
      .filter((t) => t.files.length > 0)
      .map((t) => `${t.name}: ${t.files.length} files such as ${path.relative(process.cwd(), t.files[0] as string)}`);
    expect(broad).toEqual([]);
  });
});
