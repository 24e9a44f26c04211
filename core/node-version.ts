/**
 * Started on another Node outside npm scripts, the server would start and then fail requests (Node 20 lacks
 * `Math.f16round`): next.config.ts refuses to start instead, with this one line.
 */
import semver from "semver";

export function unsupportedNodeProblem(range: string, version: string = process.version): string | null {
  if (semver.satisfies(version, range)) return null;
  const required = semver.minVersion(range)?.major ?? range;
  return (
    `Lifeline needs Node.js ${required} (package.json engines: "${range}"), not ${version}: ` +
    "start it with `npm start` or `npx next start`, which run the Node.js the install pinned (`npx node --version`)."
  );
}

export function refuseUnsupportedNode(range: string): void {
  const problem = unsupportedNodeProblem(range);
  if (!problem) return;
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}
