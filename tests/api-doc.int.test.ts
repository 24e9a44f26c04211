/**
 * docs/api.md is a script: its `sh` blocks run here, in order, in one bash process against a real
 * server over the app's route handlers (Auth.js included), and every `# …` line under a command
 * must match a line that the script printed, in the same order (`…` matches any text). A doc that
 * drifts from the API fails this test.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { useTestServer } from "./test-server";

const run = promisify(execFile);
const DOC = readFileSync(path.join(process.cwd(), "docs/api.md"), "utf8");
const DOC_BASE = "http://localhost:3000";

/** The doc's `sh` blocks, and the output lines they promise (each `# ` line that follows a command). */
function readApiDoc(markdown: string): { script: string; expected: string[] } {
  const blocks = [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] ?? "");
  const expected = blocks.flatMap((block) =>
    block
      .split("\n")
      .filter((line) => line.startsWith("# "))
      .map((line) => line.slice(2)),
  );
  return { script: blocks.join("\n"), expected };
}

function linePattern(expected: string): RegExp {
  const escaped = expected
    .split("…")
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${escaped}$`);
}

describe("docs/api.md runs as written", () => {
  it("finds the blocks and the promised outputs", () => {
    const { script, expected } = readApiDoc(DOC);
    expect(script).toContain(`B=${DOC_BASE}\n`);
    expect(expected.length).toBeGreaterThan(10);
    expect(linePattern('{"id":"…","x":1}').test('{"id":"abc","x":1}')).toBe(true);
    expect(linePattern('{"id":"…","x":1}').test('{"id":"abc","x":2}')).toBe(false);
  });

  const context = useTestServer("postgres");

  it("every command succeeds and prints what the doc says", { timeout: 120_000 }, async () => {
    // As a user types it: the server by name (Auth.js redirects name the host it was reached at).
    const base = context.server.url.replace("127.0.0.1", "localhost").replace(/\/$/, "");
    const { script, expected } = readApiDoc(DOC);
    const { stdout } = await run(
      "bash",
      ["-c", `set -euo pipefail\n${script.replace(`B=${DOC_BASE}\n`, `B=${base}\n`)}`],
      {
        timeout: 110_000,
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    const lines = stdout.split("\n");
    let at = 0;
    for (const line of expected.map((text) => text.replaceAll(DOC_BASE, base))) {
      const pattern = linePattern(line);
      const found = lines.findIndex((printed, index) => index >= at && pattern.test(printed));
      expect(
        found,
        `the doc promises the line\n  ${line}\nafter line ${at} of the output:\n${lines.slice(at).join("\n")}`,
      ).toBeGreaterThanOrEqual(0);
      at = found + 1;
    }
  });
});
