/**
 * The architecture, as a test: layers that only point down, no import cycle between folders, and
 * the process's real dependencies built only at the app edge. docs/architecture.md draws it.
 *
 *   core/  ←  db/  ←  lib/  ←  app/, components/, inngest/
 *
 * Production sources only: tests, e2e, eval and scripts may import anything.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "..");
const SOURCE_ROOTS = ["core", "db", "lib", "app", "components", "inngest"];
const TOP_FILES = ["instrumentation.ts", "proxy.ts"];

function walk(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir)).flatMap((name) => {
    const rel = path.join(dir, name);
    if (statSync(path.join(ROOT, rel)).isDirectory()) return name === "migrations" ? [] : walk(rel);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [rel] : [];
  });
}

const files = [...SOURCE_ROOTS.flatMap(walk), ...TOP_FILES];
const EXTENSIONS = ["", ".ts", ".tsx", "/index.ts", "/index.tsx"];

/** The project files `file` imports (static, dynamic and type imports), resolved to paths. */
function importsOf(file: string): string[] {
  const source = readFileSync(path.join(ROOT, file), "utf8");
  const specifiers = [...source.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)].map((m) => m[1] as string);
  return specifiers.flatMap((spec) => {
    const base = spec.startsWith("@/")
      ? spec.slice(2)
      : spec.startsWith(".")
        ? path.join(path.dirname(file), spec)
        : null;
    if (base === null) return [];
    const found = EXTENSIONS.map((ext) => base + ext).find((candidate) => {
      try {
        return statSync(path.join(ROOT, candidate)).isFile();
      } catch {
        return false;
      }
    });
    if (!found) throw new Error(`${file}: cannot resolve "${spec}"`);
    return [path.normalize(found)];
  });
}

const graph = new Map(files.map((file) => [file, importsOf(file)]));
const top = (file: string) => file.split("/")[0] as string;

function violations(from: string, allowed: string[]): string[] {
  return [...graph]
    .filter(([file]) => top(file) === from)
    .flatMap(([file, imports]) => imports.filter((i) => !allowed.includes(top(i))).map((i) => `${file} → ${i}`));
}

describe("layers only point down", () => {
  it("core/ imports nothing of the project", () => {
    expect(violations("core", ["core"])).toEqual([]);
  });

  it("db/ imports only db/ and core/", () => {
    expect(violations("db", ["db", "core"])).toEqual([]);
  });

  it("lib/ imports only lib/, db/ and core/ — never app/, components/ or inngest/", () => {
    expect(violations("lib", ["lib", "db", "core"])).toEqual([]);
  });

  it("inngest/ and components/ do not import app/", () => {
    expect([
      ...violations("inngest", ["inngest", "lib", "db", "core"]),
      ...violations("components", ["components", "lib", "db", "core"]),
    ]).toEqual([]);
  });
});

describe("the offline stand-in is a wing of its own (lib/offline/)", () => {
  const inWing = (file: string) => file.startsWith("lib/offline/");

  it("only the model registry plugs it in: nothing else outside the wing imports it", () => {
    const importers = [...graph]
      .filter(([file]) => !inWing(file) && file !== "lib/ai/registry.ts")
      .flatMap(([file, imports]) => imports.filter(inWing).map((i) => `${file} → ${i}`));
    expect(importers).toEqual([]);
  });

  it("the product below it — lib/memory, lib/chat, lib/agent — never imports it", () => {
    const product = /^lib\/(memory|chat|agent)\//;
    const importers = [...graph]
      .filter(([file]) => product.test(file))
      .flatMap(([file, imports]) => imports.filter(inWing).map((i) => `${file} → ${i}`));
    expect(importers).toEqual([]);
  });

  it("sees the registry's import of it (the check is not vacuous)", () => {
    expect((graph.get("lib/ai/registry.ts") ?? []).some(inWing)).toBe(true);
  });
});

describe("no import cycle between folders", () => {
  it("the folder graph is acyclic", () => {
    const folderEdges = new Map<string, Set<string>>();
    for (const [file, imports] of graph) {
      const from = path.dirname(file);
      for (const target of imports) {
        const to = path.dirname(target);
        if (to === from) continue;
        if (!folderEdges.has(from)) folderEdges.set(from, new Set());
        folderEdges.get(from)?.add(to);
      }
    }
    const cycles: string[] = [];
    const state = new Map<string, "visiting" | "done">();
    const visit = (folder: string, trail: string[]) => {
      if (state.get(folder) === "done") return;
      if (state.get(folder) === "visiting") {
        cycles.push([...trail.slice(trail.indexOf(folder)), folder].join(" → "));
        return;
      }
      state.set(folder, "visiting");
      for (const next of folderEdges.get(folder) ?? []) visit(next, [...trail, folder]);
      state.set(folder, "done");
    };
    for (const folder of folderEdges.keys()) visit(folder, []);
    expect(cycles).toEqual([]);
  });
});

describe("the process's dependencies are built only at the app edge", () => {
  /** Modules of lib/ that may reach for the process database and registry: the composition root and the request edges. */
  const EDGE = [
    "lib/ai/registry.ts", // defines getAiRegistry
    "lib/runtime.ts",
    "lib/api/route.ts",
    "lib/auth/index.ts", // Auth.js's handlers
    "lib/auth/server.ts", // the session of server components (pages)
    "lib/health.ts",
  ];

  it("no other lib/ module calls getDb, getDatabase or getAiRegistry, or imports lib/runtime", () => {
    const offenders = [...graph.keys()]
      .filter((file) => top(file) === "lib" && !EDGE.includes(file))
      .filter((file) => {
        const source = readFileSync(path.join(ROOT, file), "utf8");
        return /\b(?:getDb|getDatabase|getAiRegistry)\s*\(/.test(source) || graph.get(file)?.includes("lib/runtime.ts");
      });
    expect(offenders).toEqual([]);
  });
});

describe("production code is not bent to fit tests", () => {
  it("no production module reads VITEST or NODE_ENV=test", () => {
    const offenders = [...graph.keys()].filter((file) =>
      /process\.env\.VITEST|NODE_ENV\s*===?\s*["']test["']/.test(readFileSync(path.join(ROOT, file), "utf8")),
    );
    expect(offenders).toEqual([]);
  });

  it("no test fixture lives under lib/", () => {
    expect([...graph.keys()].filter((file) => top(file) === "lib" && /(fixture|test-kit|mock)/i.test(file))).toEqual(
      [],
    );
  });
});

describe("one validated configuration", () => {
  /** core/env.ts reads the environment; everything else asks it (env()) or is handed an env object. */
  const CONFIG_MODULE = "core/env.ts";
  /** Next replaces process.env.NEXT_RUNTIME at build time, so the edge bundle leaves out Node-only imports. */
  const BUILD_TIME_CONSTANTS = /process\.env\.NEXT_RUNTIME\b/g;
  const READS_ENV = /\bprocess\s*(?:\.\s*env\b|\[\s*["'`]env["'`]\s*\])|\benv\s*\}\s*=\s*process\b/;

  it("no production module but core/env.ts reads process.env", () => {
    const offenders = [...graph.keys(), "next.config.ts"]
      .filter((file) => file !== CONFIG_MODULE)
      .filter((file) => READS_ENV.test(readFileSync(path.join(ROOT, file), "utf8").replace(BUILD_TIME_CONSTANTS, "")));
    expect(offenders).toEqual([]);
  });

  it("the check sees the ways a module could read the environment", () => {
    for (const source of ["process.env.X", "process.env[name]", 'process["env"]', "const { env } = process"]) {
      expect(READS_ENV.test(source), source).toBe(true);
    }
    expect(READS_ENV.test("env().DATABASE_URL")).toBe(false);
  });
});

describe("docs/architecture.md's map has one line per folder", () => {
  /** The depth the map covers: every top-level folder, lib/* and lib/memory/* (dot-folders are tooling). */
  const MAPPED_PARENTS = ["", "lib/", "lib/memory/"];

  /** Folders holding a file git tracks or would track: build output and local data (.gitignore) never count. */
  function treeFolders(): string[] {
    const tracked = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
      cwd: ROOT,
      encoding: "utf8",
    }).split("\0");
    const folders = new Set<string>();
    for (const file of tracked) {
      const parts = file.split("/");
      for (let depth = 1; depth < parts.length; depth++) folders.add(parts.slice(0, depth).join("/"));
    }
    return [...folders].filter((folder) => {
      if (folder.startsWith(".")) return false;
      const parent = folder.slice(0, folder.lastIndexOf("/") + 1);
      return MAPPED_PARENTS.includes(parent);
    });
  }

  /** The first cell of each row of the table under "## Map", without its backticks and trailing slash. */
  function mapFolders(): string[] {
    const doc = readFileSync(path.join(ROOT, "docs/architecture.md"), "utf8");
    const section = doc.split(/^## /m).find((part) => part.startsWith("Map\n")) ?? "";
    return [...section.matchAll(/^\| `([^`]+)\/` \|/gm)].map((m) => m[1] as string);
  }

  it("every folder of the tree has a line, and every line names a folder", () => {
    const tree = treeFolders();
    const map = mapFolders();
    expect(map.length, "docs/architecture.md has no folder table under '## Map'").toBeGreaterThan(0);
    expect(tree.filter((folder) => !map.includes(folder)).map((folder) => `${folder}/ has no line in the map`)).toEqual(
      [],
    );
    expect(
      map.filter((folder) => !tree.includes(folder)).map((folder) => `${folder}/ is in the map but not in the tree`),
    ).toEqual([]);
  });
});

describe("the tree describes today, not its history", () => {
  it("no tracked file names an issue number (history belongs in commit messages)", () => {
    const tracked = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
      cwd: ROOT,
      encoding: "utf8",
    })
      .split("\0")
      // Applied migrations are history by nature; measured results and the lockfile are generated.
      .filter(
        (file) => file !== "" && !/^(db\/migrations|bench\/results|docs\/images)\/|package-lock\.json$/.test(file),
      );
    const named = tracked.flatMap((file) => {
      let text: string;
      try {
        text = readFileSync(path.join(ROOT, file), "utf8");
      } catch {
        return []; // listed but deleted in the working tree
      }
      return text
        .split("\n")
        .flatMap((line, index) =>
          /\bissues? #?\d+|\bissue-\d+/i.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [],
        );
    });
    expect(named).toEqual([]);
  });
});

describe("docs/architecture.md's 'Where is …' table", () => {
  it("names only files that exist", () => {
    const doc = readFileSync(path.join(ROOT, "docs/architecture.md"), "utf8");
    const section = doc.split(/^## /m).find((part) => part.startsWith("Where is")) ?? "";
    const owners = [...section.matchAll(/\| `([^`]+)` \|$/gm)].map((m) => m[1] as string);
    expect(owners.length, "docs/architecture.md has no 'Where is …' table").toBeGreaterThan(10);
    expect(owners.filter((file) => !statSync(path.join(ROOT, file), { throwIfNoEntry: false })?.isFile())).toEqual([]);
  });
});
