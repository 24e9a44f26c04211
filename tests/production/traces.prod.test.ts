/**
 * What the production build's functions carry: the file traces (`.next/**\/*.nft.json`) that a
 * deployment copies into its serverless functions.
 *
 * - The offline embedder's word vectors (lib/ai/offline/assets/, 5.8 MB) are in no trace of a
 *   build made with an API embedder (OPENAI_API_KEY or OPENAI_BASE_URL), the instrumentation
 *   hook's included — Next applies outputFileTracingExcludes to routes only, so the asset must not
 *   be reached by the tracer at all (word-vectors.ts reads it behind `turbopackIgnore`).
 * - A build made without one carries them in every route's trace (outputFileTracingIncludes), so
 *   a deployed offline server can read them.
 * - No trace holds the whole project (the symptom of a file read the tracer cannot scope: test
 *   files and the README in a function).
 *
 * The build's configuration is read back from `.next/required-server-files.json`, so this checks
 * whichever build is there: scripts/test.sh's (no key) or one made with
 * `OPENAI_API_KEY=sk-… npx next build`.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { offlineAssetTracing } from "@/next.config";
import { assertProductionBuild } from "./next-server";

const DIST = path.join(process.cwd(), ".next");
const ASSETS = path.join(process.cwd(), "lib", "ai", "offline", "assets") + path.sep;

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

/** Whether the build was made with an API embedder: its recorded config excludes the asset. */
function builtWithApiEmbedder(): boolean {
  const { config } = JSON.parse(readFileSync(path.join(DIST, "required-server-files.json"), "utf8")) as {
    config: { outputFileTracingExcludes?: Record<string, string[]> };
  };
  const [asset] = offlineAssetTracing({ OPENAI_API_KEY: "sk-…" }).excludes;
  return (config.outputFileTracingExcludes?.["/**"] ?? []).includes(asset as string);
}

const listsAsset = (trace: Trace) => trace.files.some((file) => file.startsWith(ASSETS));

describe("the production build's file traces", () => {
  let all: Trace[];
  beforeAll(() => {
    assertProductionBuild();
    all = traces();
  });

  it("has traces to check (the instrumentation hook's and the routes')", () => {
    expect(all.map((t) => t.name)).toContain(path.join("server", "instrumentation.js.nft.json"));
    expect(all.filter((t) => t.name.endsWith(`route.js.nft.json`)).length).toBeGreaterThan(10);
  });

  it("carries the word vectors only where the offline embedder can run", () => {
    const withAsset = all.filter(listsAsset).map((t) => t.name);
    if (builtWithApiEmbedder()) {
      // Built with OPENAI_API_KEY / OPENAI_BASE_URL: in no function at all.
      expect(withAsset).toEqual([]);
    } else {
      // Built without: in every API route's function, through outputFileTracingIncludes.
      const routes = all.filter((t) => t.name.startsWith(path.join("server", "app", "api")));
      expect(routes.filter((t) => !listsAsset(t)).map((t) => t.name)).toEqual([]);
      // And never reached by the tracer itself (the hook's trace gets no includes or excludes).
      expect(withAsset).not.toContain(path.join("server", "instrumentation.js.nft.json"));
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
