/**
 * The Node.js major Lifeline runs on is package.json's `engines` (the `node` devDependency installs
 * that binary, and every npm script runs on it). Started on another one outside npm scripts
 * (`node_modules/.bin/next start` under a process manager, a Dockerfile's own Node), the server
 * would start and then fail requests (Node 20 lacks `Math.f16round`, which the vector code uses):
 * next.config.ts refuses to start instead, with this one line.
 */
import semver from "semver";

/** Why this Node.js cannot run Lifeline (one line), or null when `range` (package.json's engines.node) allows it. */
export function unsupportedNodeProblem(range: string, version: string = process.version): string | null {
  if (semver.satisfies(version, range)) return null;
  const required = semver.minVersion(range)?.major ?? range;
  return (
    `Lifeline needs Node.js ${required} (package.json engines: "${range}"), not ${version}: ` +
    "start it with `npm start` or `npx next start`, which run the Node.js the install pinned (`npx node --version`)."
  );
}

/** Ends the process with that line when this Node.js cannot run Lifeline. */
export function refuseUnsupportedNode(range: string): void {
  const problem = unsupportedNodeProblem(range);
  if (!problem) return;
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}
