/**
 * A refused body must not break the connection it came on. Over a real keep-alive connection
 * (node:http Agent, one socket): a request refused before or while its body is read (413 for a
 * body over 256 KB — declared or streamed; 401 before the body is looked at), then a second request
 * on the SAME socket, which must succeed. Before lib/api/body.ts drained refused streamed bodies,
 * the second request hung and was reset (ECONNRESET).
 */
import http from "node:http";
import { describe, expect, it } from "vitest";
import { useTestServer } from "@/tests/test-server";

process.env.AUTH_SECRET = "keep-alive-test-secret-0123456789";

interface Sent {
  status: number;
  body: string;
  socket: number;
}

const socketIds = new WeakMap<object, number>();
let sockets = 0;

function send(
  base: string,
  agent: http.Agent,
  method: string,
  path: string,
  options: { body?: string; chunked?: boolean; headers?: Record<string, string> } = {},
): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const headers = { ...options.headers };
    if (options.body !== undefined && !options.chunked)
      headers["content-length"] = String(Buffer.byteLength(options.body));
    const req = http.request(new URL(path, base), { method, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString(),
          socket: socketIds.get(req.socket as object) ?? -1,
        }),
      );
      res.on("error", reject);
    });
    req.on("socket", (socket) => {
      if (!socketIds.has(socket)) socketIds.set(socket, ++sockets);
    });
    req.on("error", reject);
    if (options.body !== undefined) {
      const bytes = Buffer.from(options.body);
      // Chunked: several writes without Content-Length (Transfer-Encoding: chunked).
      if (options.chunked)
        for (let i = 0; i < bytes.length; i += 16 * 1024) req.write(bytes.subarray(i, i + 16 * 1024));
      else req.write(bytes);
    }
    req.end();
  });
}

const json = { "content-type": "application/json" };
const registerBody = (padding: number) =>
  JSON.stringify({ email: "big@example.com", password: "x".repeat(padding), name: "Big" });

describe("keep-alive after a refused body", () => {
  const ctx = useTestServer("pglite");

  const cases: [string, { path: string; body: string; chunked: boolean; status: number }][] = [
    [
      "413, Content-Length 300 KB",
      { path: "/api/auth/register", body: registerBody(300_000), chunked: false, status: 413 },
    ],
    [
      "413, Content-Length 2 MB",
      { path: "/api/auth/register", body: registerBody(2_000_000), chunked: false, status: 413 },
    ],
    ["413, chunked 300 KB", { path: "/api/auth/register", body: registerBody(300_000), chunked: true, status: 413 }],
    ["413, chunked 2 MB", { path: "/api/auth/register", body: registerBody(2_000_000), chunked: true, status: 413 }],
    [
      "401 before reading a 2 MB body",
      { path: "/api/memories", body: registerBody(2_000_000), chunked: true, status: 401 },
    ],
  ];

  it.each(cases)("%s → the next request on the same connection succeeds", async (_name, c) => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const refused = await send(ctx.server.url, agent, "POST", c.path, {
        body: c.body,
        chunked: c.chunked,
        headers: json,
      });
      expect(refused.status, refused.body).toBe(c.status);
      if (c.status === 413)
        expect(JSON.parse(refused.body).error.message).toMatch(/Request body too large: the limit is 256 KB/);
      const next = await send(ctx.server.url, agent, "GET", "/api/health");
      expect(next.status).toBe(200);
      expect(next.socket, "the same connection was reused").toBe(refused.socket);
    } finally {
      agent.destroy();
    }
  });
});
