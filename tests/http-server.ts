/** Routes, answers 405 and applies next.config.ts's `headers()` as Next does. */
import "./next-esm";
import { readdirSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { getPathMatch } from "next/dist/shared/lib/router/utils/path-match";
import { NextRequest } from "next/server";
import { type Database, setDatabase } from "@/db/client";
import nextConfig from "@/next.config";

export const HTTP_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

const APP_DIR = path.join(process.cwd(), "app");

type Segment =
  | { kind: "static"; value: string }
  | { kind: "dynamic"; name: string }
  | { kind: "catchAll"; name: string; optional: boolean };

export interface RouteFile {
  pattern: string;
  file: string;
  segments: Segment[];
}

export interface MountedRoute extends RouteFile {
  methods: HttpMethod[];
  handlers: Partial<
    Record<HttpMethod, (request: NextRequest, context: { params: Promise<unknown> }) => Promise<Response>>
  >;
}

function parseSegment(part: string): Segment {
  const optional = /^\[\[\.\.\.(.+)\]\]$/.exec(part);
  if (optional?.[1]) return { kind: "catchAll", name: optional[1], optional: true };
  const catchAll = /^\[\.\.\.(.+)\]$/.exec(part);
  if (catchAll?.[1]) return { kind: "catchAll", name: catchAll[1], optional: false };
  const dynamic = /^\[(.+)\]$/.exec(part);
  if (dynamic?.[1]) return { kind: "dynamic", name: dynamic[1] };
  return { kind: "static", value: part };
}

export function discoverRouteFiles(): RouteFile[] {
  const files = readdirSync(path.join(APP_DIR, "api"), { recursive: true, encoding: "utf8" })
    .filter((f) => /(^|\/)route\.(ts|js)$/.test(f))
    .map((f) => path.posix.join("api", f.split(path.sep).join("/")));
  return files
    .filter((f) => !f.split("/").some((p) => p.startsWith("_")))
    .map((f) => {
      const parts = f
        .split("/")
        .slice(0, -1)
        .filter((p) => !/^\(.+\)$/.test(p));
      return { pattern: `/${parts.join("/")}`, file: `app/${f}`, segments: parts.map(parseSegment) };
    })
    .sort((a, b) => specificity(a.segments, b.segments));
}

const RANK = { static: 0, dynamic: 1, catchAll: 2 } as const;

function specificity(a: Segment[], b: Segment[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (!x || !y) return x ? -1 : 1;
    if (RANK[x.kind] !== RANK[y.kind]) return RANK[x.kind] - RANK[y.kind];
  }
  return 0;
}

export async function loadRoutes(): Promise<MountedRoute[]> {
  const routes: MountedRoute[] = [];
  for (const routeFile of discoverRouteFiles()) {
    const mod = (await import(path.join(process.cwd(), routeFile.file))) as Record<string, unknown>;
    const handlers: MountedRoute["handlers"] = {};
    for (const method of HTTP_METHODS) {
      const handler = mod[method];
      if (typeof handler === "function") handlers[method] = handler as MountedRoute["handlers"][HttpMethod];
    }
    routes.push({ ...routeFile, methods: Object.keys(handlers) as HttpMethod[], handlers });
  }
  return routes;
}

export function matchRoute(
  routes: MountedRoute[],
  pathname: string,
): { route: MountedRoute; params: Record<string, string | string[]> } | null {
  const parts = pathname.split("/").filter(Boolean);
  for (const route of routes) {
    const params: Record<string, string | string[]> = {};
    let i = 0;
    let ok = true;
    for (const segment of route.segments) {
      if (segment.kind === "catchAll") {
        const rest = parts.slice(i).map(decodeURIComponent);
        if (rest.length === 0 && !segment.optional) ok = false;
        else if (rest.length > 0) params[segment.name] = rest;
        i = parts.length;
        break;
      }
      const part = parts[i++];
      if (part === undefined) {
        ok = false;
        break;
      }
      if (segment.kind === "static" && part !== segment.value) {
        ok = false;
        break;
      }
      if (segment.kind === "dynamic") params[segment.name] = decodeURIComponent(part);
    }
    if (ok && i === parts.length) return { route, params };
  }
  return null;
}

/** As in Next: the request's signal aborts when the client goes away before the response ends. */
function toNextRequest(req: IncomingMessage, res: ServerResponse): NextRequest {
  const url = `http://${req.headers.host ?? "127.0.0.1"}${req.url ?? "/"}`;
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(key, v);
    else if (value !== undefined) headers.set(key, value);
  }
  const method = req.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  return new NextRequest(url, {
    method,
    headers,
    signal: controller.signal,
    // As Next's NextRequestAdapter: undici reads it lazily, so an unread body is drained after the response (keep-alive).
    body: hasBody ? (req as unknown as ReadableStream<Uint8Array>) : undefined,
    duplex: "half",
  });
}

/** A header the handler set itself wins, as in Next. */
type ConfigHeaders = { match: (pathname: string) => unknown; headers: { key: string; value: string }[] }[];

export async function loadConfigHeaders(): Promise<ConfigHeaders> {
  const rules = (await nextConfig.headers?.()) ?? [];
  return rules.map((rule) => ({ match: getPathMatch(rule.source), headers: rule.headers }));
}

function applyConfigHeaders(res: ServerResponse, rules: ConfigHeaders, pathname: string): void {
  for (const rule of rules) {
    if (rule.match(pathname) === false) continue;
    for (const { key, value } of rule.headers) res.setHeader(key, value);
  }
}

async function writeResponse(res: ServerResponse, response: Response): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, key) => {
    if (key !== "set-cookie") res.setHeader(key, value);
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader("set-cookie", cookies);
  if (response.body) {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      if (res.destroyed) break;
      res.write(chunk);
    }
  }
  res.end();
}

export interface TestServer {
  url: string;
  routes: MountedRoute[];
  close(): Promise<void>;
}

export async function startTestServer({ database }: { database: Database }): Promise<TestServer> {
  setDatabase(database);
  const routes = await loadRoutes();
  const configHeaders = await loadConfigHeaders();
  const server = createServer(async (req, res) => {
    try {
      const pathname = new URL(req.url ?? "/", "http://x").pathname;
      applyConfigHeaders(res, configHeaders, pathname);
      let match: ReturnType<typeof matchRoute>;
      try {
        match = matchRoute(routes, pathname);
      } catch (error) {
        // A malformed percent-escape in a dynamic segment: Next answers 400 before any handler.
        if (error instanceof URIError)
          return void (await writeResponse(res, new Response("Bad Request", { status: 400 })));
        throw error;
      }
      if (!match) return void (await writeResponse(res, new Response("Not Found", { status: 404 })));
      const handler = match.route.handlers[(req.method ?? "GET") as HttpMethod];
      if (!handler) {
        const allow = match.route.methods.join(", ");
        return void (await writeResponse(res, new Response(null, { status: 405, headers: { allow } })));
      }
      const response = await handler(toNextRequest(req, res), { params: Promise.resolve(match.params) });
      await writeResponse(res, response);
    } catch (error) {
      // What Next does with a handler that throws: a bare 500.
      console.error("test server: route handler threw", error);
      if (!res.headersSent) res.statusCode = 500;
      res.end("Internal Server Error");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    routes,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())));
      setDatabase(undefined);
    },
  };
}
