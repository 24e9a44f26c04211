/**
 * The pages of one record — a chat, an answer's debug view (an imported answer's too), an external call,
 * an import — answer HTTP 404 for a record that is not the signed-in user's (another user's, a random id,
 * not an id at all) — and an import's page number past its last page — on the production build. Their segments stream behind a loading boundary, and a streamed response has
 * sent its 200 before the page's own notFound() runs: the status comes from proxy.ts, which checks
 * the record before anything renders. The owner still gets the page (200).
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpClient, registerAndSignIn } from "../http-client";
import { freePort, type NextServer, startNextServer } from "./next-server";

describe("next start: a record that is not yours is a 404 page", () => {
  let server: NextServer;
  let owner: Awaited<ReturnType<typeof registerAndSignIn>>;
  let intruder: Awaited<ReturnType<typeof registerAndSignIn>>;
  const pages: Record<string, string> = {};

  beforeAll(async () => {
    const port = await freePort();
    server = await startNextServer(
      {
        NODE_ENV: "production",
        LIFELINE_ALLOW_EMBEDDED_DB: "1",
        LIFELINE_ALLOW_IN_PROCESS_JOBS: "1",
        LIFELINE_DATA_DIR: path.join(mkdtempSync(path.join(tmpdir(), "lifeline-not-found-")), "pglite"),
        AUTH_SECRET: "not-found-test-secret-0123456789abcdef",
        LIFELINE_PASSWORD_HASH_COST: "10",
        LIFELINE_OFFLINE_DELAY_MS: "0",
        AUTH_URL: `http://127.0.0.1:${port}`,
      },
      port,
    );
    owner = await registerAndSignIn(server.url, "owner");
    intruder = await registerAndSignIn(server.url, "intruder");

    const chat = await owner.client.request("POST", "/api/chat", { json: { message: { text: "I live in Lyon." } } });
    expect(chat.status, chat.text).toBe(200);
    const conversationId = chat.headers.get("x-conversation-id") ?? "";
    const listed = await owner.client.request("GET", `/api/conversations/${conversationId}/messages`);
    const { messages } = listed.json as { messages: { id: string; role: string }[] };
    const answerId = messages.find((m) => m.role === "assistant")?.id ?? "";

    const token = await owner.client.request("POST", "/api/access-tokens", { json: { name: "probe", scope: "read" } });
    const { secret } = token.json as { secret: string };
    const call = await new HttpClient(server.url).request("POST", "/api/mcp", {
      json: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "list_memories", arguments: {} } },
      headers: { accept: "application/json, text/event-stream", authorization: `Bearer ${secret}` },
    });
    expect(call.status, call.text).toBe(200);
    const calls = await owner.client.request("GET", "/settings/external-calls");
    const callId = /\/settings\/external-calls\/([0-9a-f-]{36})/.exec(calls.text)?.[1] ?? "";
    expect(callId).not.toBe("");

    const created = await owner.client.request("POST", "/api/imports", {
      json: { source: "chatgpt", fileName: "export.zip" },
    });
    expect(created.status, created.text).toBe(201);
    const importId = (created.json as { import: { id: string } }).import.id;
    const batch = await owner.client.request("POST", `/api/imports/${importId}/conversations`, {
      json: {
        conversations: [
          {
            sourceId: "c1",
            title: "Moving to Lyon",
            createdAt: "2024-01-01T09:00:00.000Z",
            messages: [
              { sourceId: "u1", role: "user", text: "I moved to Lyon.", createdAt: "2024-01-01T09:00:00.000Z" },
              { sourceId: "a1", role: "assistant", text: "Welcome to Lyon!", createdAt: "2024-01-01T09:01:00.000Z" },
            ],
          },
        ],
      },
    });
    expect(batch.status, batch.text).toBe(200);
    const imported = await owner.client.request("GET", "/api/conversations?archived=true");
    const importedChat = (imported.json as { conversations: { id: string }[] }).conversations[0]?.id;
    const importedMessages = await owner.client.request("GET", `/api/conversations/${importedChat}/messages`);
    const importedAnswer = (importedMessages.json as { messages: { id: string; role: string }[] }).messages.find(
      (m) => m.role === "assistant",
    )?.id;

    pages.importPage = `/settings/imports/${importId}`;
    pages.importedAnswer = `/messages/${importedAnswer}/debug`;
    pages.chat = `/chat/${conversationId}`;
    pages.debug = `/messages/${answerId}/debug`;
    pages.call = `/settings/external-calls/${callId}`;
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
  });

  it("the owner gets each page", async () => {
    for (const page of Object.values(pages)) {
      const res = await owner.client.request("GET", page);
      expect(res.status, page).toBe(200);
    }
  });

  it("a chat started after those page views is found too: the proxy reads the one database handle the routes write to", async () => {
    const chat = await owner.client.request("POST", "/api/chat", { json: { message: { text: "A new chat." } } });
    expect(chat.status).toBe(200);
    const res = await owner.client.request("GET", `/chat/${chat.headers.get("x-conversation-id")}`);
    expect(res.status).toBe(200);
  });

  it("another user gets a 404 for each, saying it was not found and showing nothing of it", async () => {
    for (const page of Object.values(pages)) {
      const res = await intruder.client.request("GET", page);
      expect(res.status, page).toBe(404);
      expect(res.text).toMatch(/not found/i);
      expect(res.text).not.toContain("Lyon");
    }
  });

  it("a random id, or no id at all, is a 404 too", async () => {
    for (const id of [randomUUID(), "not-an-id"]) {
      for (const page of [
        `/chat/${id}`,
        `/messages/${id}/debug`,
        `/settings/external-calls/${id}`,
        `/settings/imports/${id}`,
      ]) {
        const res = await owner.client.request("GET", page);
        expect(res.status, page).toBe(404);
      }
    }
  });

  it("an import's page past its last page, or with a page that is not a number, is a 404; its first page is not", async () => {
    const importPage = pages.importPage ?? "";
    for (const query of ["?page=2", "?page=0", "?page=two", "?page=1&page=1"]) {
      const res = await owner.client.request("GET", `${importPage}${query}`);
      expect(res.status, query).toBe(404);
      expect(res.text).toMatch(/not found/i);
      expect(res.text).not.toContain("Moving to Lyon");
    }
    expect((await owner.client.request("GET", `${importPage}?page=1`)).status).toBe(200);
  });

  it("an answer's debug view exists only for answers: the question's id is a 404", async () => {
    const conversationId = pages.chat?.split("/").at(-1);
    const listed = await owner.client.request("GET", `/api/conversations/${conversationId}/messages`);
    const { messages } = listed.json as { messages: { id: string; role: string }[] };
    const question = messages.find((m) => m.role === "user");
    const res = await owner.client.request("GET", `/messages/${question?.id}/debug`);
    expect(res.status).toBe(404);
  });
});
