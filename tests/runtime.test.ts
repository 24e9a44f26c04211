/**
 * The suites run on the Node.js major Vercel deploys (package.json `engines`): the `node`
 * devDependency puts that exact binary first on the PATH of every npm script, whatever Node.js
 * the machine has (README § Requirements).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const manifest = JSON.parse(readFileSync(path.join(__dirname, "..", "package.json"), "utf8")) as {
  engines: { node: string };
  devDependencies: Record<string, string>;
};

describe("the Node.js runtime", () => {
  it("pins one major in engines, the way Vercel reads it (`24.x`)", () => {
    expect(manifest.engines.node).toMatch(/^\d+\.x$/);
  });

  it("pins the node devDependency exactly, within that major", () => {
    const pinned = manifest.devDependencies.node ?? "";
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    expect(pinned.split(".")[0]).toBe(manifest.engines.node.split(".")[0]);
  });

  it("runs these tests on the pinned binary", () => {
    expect(process.version).toBe(`v${manifest.devDependencies.node}`);
  });
});
