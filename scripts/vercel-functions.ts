/** Each `.func` is counted once: Vercel links every route it serves to it. */
import { lstatSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import path from "node:path";

/** vercel.com/docs/functions/limitations */
export const VERCEL_LIMITS = {
  /** Uncompressed, bundle included. */
  bytes: 250_000_000,
  /** maxDuration in seconds: Hobby's ceiling with fluid compute (Pro and Enterprise allow 800). */
  maxDurationSeconds: 300,
} as const;

export interface VercelFunction {
  name: string;
  routes: string[];
  runtime: string;
  /** Undefined: Vercel's default. */
  maxDuration: number | undefined;
  files: number;
  bytes: number;
  pgliteFiles: number;
  wordVectorFiles: number;
}

interface VcConfig {
  runtime?: string;
  maxDuration?: number;
  filePathMap?: Record<string, string>;
}

const PGLITE = /(^|\/)node_modules\/@electric-sql\/pglite/;
const WORD_VECTORS = /(^|\/)lib\/offline\/assets\//;

function walk(dir: string): string[] {
  return (readdirSync(dir, { recursive: true, encoding: "utf8" }) as string[])
    .map((name) => path.join(dir, name))
    .filter((file) => statSync(file, { throwIfNoEntry: false })?.isFile());
}

export function vercelFunctions(outputDir: string, projectRoot: string): VercelFunction[] {
  const functionsDir = path.join(outputDir, "functions");
  const byTarget = new Map<string, { dir: string; routes: string[] }>();
  for (const name of readdirSync(functionsDir, { recursive: true, encoding: "utf8" }) as string[]) {
    if (!name.endsWith(".func")) continue;
    const dir = path.join(functionsDir, name);
    const target = realpathSync(dir);
    const route = `/${name.replace(/\.func$/, "")}`;
    const entry = byTarget.get(target) ?? { dir: target, routes: [] };
    entry.routes.push(route);
    if (!lstatSync(dir).isSymbolicLink()) entry.dir = dir;
    byTarget.set(target, entry);
  }
  const functions: VercelFunction[] = [];
  for (const { dir, routes } of byTarget.values()) {
    const config = JSON.parse(readFileSync(path.join(dir, ".vc-config.json"), "utf8")) as VcConfig;
    const own = walk(dir).map((file) => ({ file, id: path.relative(dir, file) }));
    const mapped = Object.values(config.filePathMap ?? {}).map((file) => ({
      file: path.join(projectRoot, file),
      id: file,
    }));
    const carried = [...own, ...mapped].filter(({ file }) => statSync(file, { throwIfNoEntry: false })?.isFile());
    functions.push({
      name: path.relative(functionsDir, dir),
      routes: routes.sort(),
      runtime: config.runtime ?? "unknown",
      maxDuration: config.maxDuration,
      files: carried.length,
      bytes: carried.reduce((sum, { file }) => sum + statSync(file).size, 0),
      pgliteFiles: carried.filter(({ id }) => PGLITE.test(id)).length,
      wordVectorFiles: carried.filter(({ id }) => WORD_VECTORS.test(id)).length,
    });
  }
  return functions.sort((a, b) => b.bytes - a.bytes);
}

export interface BuildExpectations {
  runtime: string;
  postgres: boolean;
  apiEmbedder: boolean;
}

export function functionProblems(fn: VercelFunction, expected: BuildExpectations): string[] {
  const problems: string[] = [];
  if (fn.runtime !== expected.runtime) problems.push(`runs on ${fn.runtime}, not ${expected.runtime}`);
  if (fn.bytes > VERCEL_LIMITS.bytes) problems.push(`is ${megabytes(fn.bytes)}, over Vercel's 250 MB`);
  if ((fn.maxDuration ?? 0) > VERCEL_LIMITS.maxDurationSeconds)
    problems.push(`asks for maxDuration ${fn.maxDuration} s, over Hobby's ${VERCEL_LIMITS.maxDurationSeconds} s`);
  if (expected.postgres && fn.pgliteFiles > 0) problems.push(`carries PGlite (${fn.pgliteFiles} files)`);
  if (expected.apiEmbedder && fn.wordVectorFiles > 0) problems.push("carries the offline word vectors");
  return problems;
}

export const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
