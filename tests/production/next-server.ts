/** Exactly the environment a test gives it (plus PATH and HOME): what a deployer runs. */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";

export interface NextServer {
  url: string;
  output(): string;
  waitForOutput(pattern: RegExp, ms?: number): Promise<string>;
  stop(): Promise<void>;
}

const BUILD_ID = path.join(process.cwd(), ".next", "BUILD_ID");

export function assertProductionBuild(): void {
  if (!existsSync(BUILD_ID)) {
    throw new Error("No production build in .next: run `npx next build` first (scripts/test.sh does).");
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export async function startNextServer(env: Record<string, string>, port?: number): Promise<NextServer> {
  const server = await launchNextServer(env, port);
  try {
    await server.waitForOutput(/Ready in/, 60_000);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return server;
}

/** Does not wait: the server may refuse to start. */
export async function launchNextServer(
  env: Record<string, string>,
  port?: number,
  { node = process.execPath }: { node?: string } = {},
): Promise<NextServer & { exited(): boolean }> {
  assertProductionBuild();
  const listenOn = port ?? (await freePort());
  const child: ChildProcess = spawn(
    node,
    [
      path.join(process.cwd(), "node_modules", "next", "dist", "bin", "next"),
      "start",
      "-H",
      "127.0.0.1",
      "-p",
      String(listenOn),
    ],
    {
      cwd: process.cwd(),
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        NEXT_TELEMETRY_DISABLED: "1",
        NODE_ENV: "production",
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  const waiters = new Set<() => void>();
  const append = (chunk: Buffer) => {
    output += chunk.toString("utf8");
    for (const wake of waiters) wake();
  };
  child.stdout?.on("data", append);
  child.stderr?.on("data", append);
  let exited = false;
  child.once("exit", () => {
    exited = true;
    for (const wake of waiters) wake();
  });

  const waitForOutput = (pattern: RegExp, ms = 30_000) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(output);
        if (match) {
          done();
          resolve(match[0]);
        } else if (exited) {
          done();
          reject(new Error(`next start exited before printing ${pattern}:\n${output}`));
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`next start did not print ${pattern} within ${ms} ms:\n${output}`));
      }, ms);
      const done = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });

  const server = {
    exited: () => exited,
    url: `http://127.0.0.1:${listenOn}`,
    output: () => output,
    waitForOutput,
    stop: () =>
      new Promise<void>((resolve) => {
        if (exited) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 5_000).unref();
      }),
  };
  return server;
}
