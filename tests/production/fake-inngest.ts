/**
 * A stand-in for Inngest Cloud for the production tests (the dev server's binary cannot be
 * downloaded on these machines): accepts events and drives the function step by step, signed with
 * the SDK's own helper. Not covered: retries with backoff, sleeps, waitForEvent, concurrency keys.
 * `beforeCall` may hold a run between two calls, as Inngest may take any time to schedule a step.
 * It refuses what Inngest refuses: another event key (401), an event without a name (400); and, as Inngest does, it
 * accepts an event whose id it has seen but starts nothing for it (`duplicates`).
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";

type SignData = (data: unknown, signingKey: string, ts: string, logger: unknown) => Promise<string>;

const silent = { debug() {}, info() {}, warn() {}, error() {} };

/** The Inngest SDK's own request signer (inngest/helpers/net.js, not in its public exports). */
async function sdkSigner(): Promise<SignData> {
  const file = path.join(process.cwd(), "node_modules", "inngest", "helpers", "net.js");
  const module = (await import(pathToFileURL(file).href)) as { signDataWithKey: SignData };
  return module.signDataWithKey;
}

/** The HMAC is over the body's canonical JSON (RFC 8785) followed by the timestamp, as the SDK verifies. */
export async function inngestSignature(body: string, signingKey: string, at = new Date()): Promise<string> {
  const ts = Math.round(at.getTime() / 1000).toString();
  const sign = await sdkSigner();
  return `t=${ts}&s=${await sign(JSON.parse(body) as unknown, signingKey, ts, silent)}`;
}

export interface FakeInngestRun {
  runId: string;
  event: Record<string, unknown>;
  status: "running" | "completed" | "failed";
  responses: number[];
  output?: unknown;
  error?: string;
}

export interface FakeInngest {
  url: string;
  /** Accepted events, each id once. */
  events: Record<string, unknown>[];
  /** Events whose id was seen before: acknowledged, and nothing runs. */
  duplicates: Record<string, unknown>[];
  runs: FakeInngestRun[];
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** `functionId` is Inngest's `<app id>-<function id>`; `appUrl()` is known once the app started. */
export async function startFakeInngest(options: {
  signingKey: string;
  functionIds: Record<string, string>;
  appUrl: () => string;
  /** The only event key accepted; any key when absent. */
  eventKey?: string;
  /** Awaited before each call to the app: `call` counts from 0 within the run. */
  beforeCall?: (run: FakeInngestRun, call: number) => Promise<void>;
}): Promise<FakeInngest> {
  const events: Record<string, unknown>[] = [];
  const duplicates: Record<string, unknown>[] = [];
  const seenIds = new Set<string>();
  const runs: FakeInngestRun[] = [];

  async function execute(run: FakeInngestRun, functionId: string): Promise<void> {
    const steps: Record<string, { type: "data"; data: unknown } | { type: "error"; error: unknown }> = {};
    const stack: string[] = [];
    let stepId = "step";
    for (let call = 0; call < 50; call++) {
      await options.beforeCall?.(run, call);
      const body = JSON.stringify({
        event: run.event,
        events: [run.event],
        steps,
        ctx: {
          run_id: run.runId,
          attempt: 0,
          disable_immediate_execution: false,
          use_api: false,
          stack: { stack, current: stack.length - 1 },
        },
      });
      const url = new URL("/api/inngest", options.appUrl());
      url.searchParams.set("fnId", functionId);
      url.searchParams.set("stepId", stepId);
      const response = await fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-inngest-signature": await inngestSignature(body, options.signingKey),
          "x-inngest-server-kind": "cloud",
        },
        body,
      });
      run.responses.push(response.status);
      const text = await response.text();
      if (response.status === 200) {
        run.status = "completed";
        run.output = text ? JSON.parse(text) : undefined;
        return;
      }
      if (response.status !== 206) {
        run.status = "failed";
        run.error = `${response.status} ${text}`;
        return;
      }
      const ops = JSON.parse(text) as { op: string; id: string; data?: unknown; error?: unknown }[];
      stepId = "step";
      for (const op of ops) {
        if (op.op === "StepRun" || op.op === "Step") {
          steps[op.id] = { type: "data", data: op.data ?? null };
          stack.push(op.id);
        } else if (op.op === "StepError" || op.op === "StepFailed") {
          steps[op.id] = { type: "error", error: op.error };
          stack.push(op.id);
        } else if (op.op === "StepPlanned") {
          stepId = op.id;
        } else {
          run.status = "failed";
          run.error = `the stand-in does not run ${op.op}`;
          return;
        }
      }
    }
    run.status = "failed";
    run.error = "more than 50 calls";
  }

  const server = createServer(async (request, response) => {
    const match = /^\/e\/([^/?]+)/.exec(request.url ?? "");
    if (request.method !== "POST" || !match) {
      response.writeHead(404).end();
      return;
    }
    const refuse = (status: number, error: string) =>
      response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ error, status }));
    if (options.eventKey !== undefined && decodeURIComponent(match[1] ?? "") !== options.eventKey) {
      refuse(401, "Event key not found");
      return;
    }
    const parsed = JSON.parse(await readBody(request)) as Record<string, unknown> | Record<string, unknown>[];
    const received = Array.isArray(parsed) ? parsed : [parsed];
    if (received.some((event) => typeof event.name !== "string" || event.name === "")) {
      refuse(400, "Event name is required");
      return;
    }
    const ids = received.map((event) => (typeof event.id === "string" ? event.id : randomUUID()));
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ids, status: 200 }));
    for (const event of received) {
      if (typeof event.id === "string" && event.id !== "") {
        if (seenIds.has(event.id)) {
          duplicates.push(event);
          continue;
        }
        seenIds.add(event.id);
      }
      events.push(event);
      const functionId = options.functionIds[String(event.name)];
      if (!functionId) continue;
      const run: FakeInngestRun = { runId: randomUUID(), event, status: "running", responses: [] };
      runs.push(run);
      void execute(run, functionId).catch((error: unknown) => {
        run.status = "failed";
        run.error = String(error);
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    events,
    duplicates,
    runs,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
