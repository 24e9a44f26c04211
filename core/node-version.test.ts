import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { unsupportedNodeProblem } from "./node-version";

const engines = JSON.parse(readFileSync(path.join(__dirname, "..", "package.json"), "utf8")).engines.node as string;

describe("unsupportedNodeProblem", () => {
  it("accepts the Node.js major package.json's engines names, which runs these tests", () => {
    expect(engines).toBe("24.x");
    expect(unsupportedNodeProblem(engines, "v24.3.0")).toBeNull();
    expect(unsupportedNodeProblem(engines, process.version)).toBeNull();
  });

  it("refuses another major in one line naming the required major and how to run the pinned one", () => {
    expect(unsupportedNodeProblem(engines, "v20.20.2")).toBe(
      'Lifeline needs Node.js 24 (package.json engines: "24.x"), not v20.20.2: start it with `npm start` or `npx next start`, which run the Node.js the install pinned (`npx node --version`).',
    );
    expect(unsupportedNodeProblem(engines, "v25.0.0")).toMatch(/^Lifeline needs Node\.js 24 /);
  });
});
