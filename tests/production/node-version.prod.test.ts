/**
 * The production build started on a Node.js major that package.json's `engines` does not allow —
 * `node_modules/.bin/next start` under another Node, as process managers and Dockerfiles do — stops
 * at once with one line naming the required major and how to run the pinned one, instead of
 * starting and failing requests. Needs such a Node on the machine (Debian's /usr/bin/node is 20).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { unsupportedNodeProblem } from "@/core/node-version";
import { launchNextServer } from "./next-server";

const engines = JSON.parse(readFileSync("package.json", "utf8")).engines.node as string;

function versionOf(node: string): string | null {
  try {
    return execFileSync(node, ["--version"], { encoding: "utf8" }).trim();
  } catch {
    return null;
  }
}

const otherNode = ["/usr/bin/node", "/usr/local/bin/node", "/bin/node"]
  .filter((node) => existsSync(node))
  .map((node) => ({ node, version: versionOf(node) }))
  .find(({ version }) => version !== null && unsupportedNodeProblem(engines, version) !== null);

describe("next start on a Node.js that engines does not allow", () => {
  it.skipIf(!otherNode)(`refuses to start, in one line (${otherNode?.version ?? "no such Node.js here"})`, async () => {
    if (!otherNode) return;
    const server = await launchNextServer(
      { NODE_ENV: "production", LIFELINE_ALLOW_EMBEDDED_DB: "1", LIFELINE_ALLOW_IN_PROCESS_JOBS: "1" },
      undefined,
      { node: otherNode.node },
    );
    try {
      await expect.poll(() => server.exited(), { timeout: 60_000, interval: 100 }).toBe(true);
      const lines = server
        .output()
        .split("\n")
        .filter((line) => line.trim() !== "");
      // Next prints its banner before it loads next.config.ts; then the one line, and the process is gone.
      expect(lines.filter((line) => !/^(▲ Next\.js|- (Local|Network):|✓ Ready in)/.test(line.trim()))).toEqual([
        unsupportedNodeProblem(engines, otherNode.version ?? ""),
      ]);
      expect(lines.at(-1)).toMatch(/^Lifeline needs Node\.js 24 .*npm start.*npx next start/);
    } finally {
      await server.stop();
    }
  });
});
