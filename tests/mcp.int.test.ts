/**
 * The MCP server (POST /api/mcp) through the official TypeScript SDK's client and Streamable HTTP
 * transport, over real HTTP (tests/http-server.ts: the app's route handlers on a node:http server),
 * on PGlite and Postgres: the tools are listed and each is called; a revoked, expired or unknown
 * token and a browser session are refused; a read token's writes are tool errors; another user's
 * memory ids are not found; the recorded call holds byte for byte what the client received;
 * get_memory_context returns the memory lines a chat turn with the same message put in its prompt
 * (its debug record); a forgotten memory's text leaves the records.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deletionConfig } from "@/core/config";
import { DELETED_MEMORY } from "@/core/deleted-memory";
import type { Database, Db } from "@/db/client";
import { getMcpCall, listMcpCalls } from "@/db/queries/mcp-calls";
import { redactDueDeletions } from "@/db/queries/redaction";
import { accessTokens, mcpCalls, memories, memoryUsage } from "@/db/schema";
import { createTestDatabase, DB_KINDS } from "./db";
import { HttpClient, registerAndSignIn } from "./http-client";
import { startTestServer, type TestServer } from "./http-server";

process.env.AUTH_SECRET = "mcp-test-secret-0123456789abcdef012345";

type User = Awaited<ReturnType<typeof registerAndSignIn>>;
type ToolResult = { content: { type: string; text: string }[]; isError?: boolean };

describe.each(DB_KINDS)("the MCP server on %s", (kind) => {
  let database: Database;
  let db: Db;
  let server: TestServer;
  let ada: User;
  let bob: User;
  type Token = { id: string; secret: string };
  let secrets: { read: Token; write: Token; bob: Token };
  const clients: Client[] = [];

  const createToken = async (user: User, name: string, scope: "read" | "read+write") => {
    const res = await user.client.request("POST", "/api/access-tokens", { json: { name, scope } });
    expect(res.status, res.text).toBe(201);
    const { token, secret } = res.json as { token: { id: string }; secret: string };
    return { id: token.id, secret };
  };
  const addMemory = async (user: User, content: string) => {
    const res = await user.client.request("POST", "/api/memories", { json: { content } });
    expect(res.status, res.text).toBe(201);
    return (res.json as { memory: { id: string } }).memory.id;
  };
  const connect = async (secret: string): Promise<Client> => {
    const client = new Client({ name: "lifeline-test", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL("/api/mcp", server.url), {
      requestInit: { headers: { authorization: `Bearer ${secret}` } },
    });
    await client.connect(transport);
    clients.push(client);
    return client;
  };
  const call = async (client: Client, name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as ToolResult;
  const textOf = (result: ToolResult) => {
    expect(result.content).toHaveLength(1);
    return result.content[0]?.text ?? "";
  };
  const lastCall = async (tool: string) => {
    const rows = await db.select().from(mcpCalls).where(eq(mcpCalls.tool, tool));
    return rows.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0];
  };

  let adaMemories: Record<"peanuts" | "porto" | "ocaml", string>;
  let bobMemory: string;
  let reader: Client;
  let writer: Client;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    db = database.db;
    server = await startTestServer({ database });
    ada = await registerAndSignIn(server.url, "ada");
    bob = await registerAndSignIn(server.url, "bob");
    adaMemories = {
      peanuts: await addMemory(ada, "Ada is allergic to peanuts"),
      porto: await addMemory(ada, "Ada lives in Porto, Portugal"),
      ocaml: await addMemory(ada, "Ada's favourite programming language is OCaml"),
    };
    bobMemory = await addMemory(bob, "Bob keeps bees on his roof");
    secrets = {
      read: await createToken(ada, "Claude Desktop", "read"),
      write: await createToken(ada, "Cursor", "read+write"),
      bob: await createToken(bob, "Bob's agent", "read+write"),
    };
    reader = await connect(secrets.read.secret);
    writer = await connect(secrets.write.secret);
  });
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => {});
    await server?.close();
    await database?.close();
  });

  it("lists the five tools to a read+write token, the three read tools to a read token", async () => {
    expect((await reader.listTools()).tools.map((tool) => tool.name).sort()).toEqual(
      ["get_memory_context", "list_memories", "search_memories"].sort(),
    );
    const { tools } = await writer.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      ["forget", "get_memory_context", "list_memories", "remember", "search_memories"].sort(),
    );
    for (const tool of tools) {
      expect(tool.description?.length).toBeGreaterThan(40);
      expect(tool.inputSchema.type).toBe("object");
    }
    const search = tools.find((tool) => tool.name === "search_memories");
    expect(search?.inputSchema.required).toEqual(["query"]);
    expect(tools.find((tool) => tool.name === "forget")?.annotations?.destructiveHint).toBe(true);
  });

  it("get_memory_context returns the memory lines a chat turn with the same message put in its prompt", async () => {
    const message = "What should I avoid eating, given my peanut allergy?";
    const chat = await ada.client.request("POST", "/api/chat", { json: { message: { text: message } } });
    expect(chat.status, chat.text).toBe(200);
    const conversationId = chat.headers.get("x-conversation-id");
    const listed = await ada.client.request("GET", `/api/conversations/${conversationId}/messages`);
    const answer = (listed.json as { messages: { id: string; role: string }[] }).messages.find(
      (m) => m.role === "assistant",
    );
    const debug = await ada.client.request("GET", `/api/messages/${answer?.id}/debug`);
    expect(debug.status, debug.text).toBe(200);
    const chatLines = (debug.json as { debug: { trace: { memoryLines: string[] } } }).debug.trace.memoryLines;
    expect(chatLines.some((line) => line.includes("peanuts"))).toBe(true);

    const before = await db.select().from(memoryUsage).where(eq(memoryUsage.memoryId, adaMemories.peanuts));
    const result = await call(reader, "get_memory_context", { message });
    expect(result.isError).toBeFalsy();
    const text = textOf(result);
    const output = JSON.parse(text) as { status: string; memories: { id: string; line: string; why: string }[] };
    expect(output.status).toBe("ok");
    expect(output.memories.map((memory) => memory.line)).toEqual(chatLines);
    const peanuts = output.memories.find((memory) => memory.id === adaMemories.peanuts);
    expect(peanuts?.why).toMatch(/relevant to the message \(similarity/);

    // Recorded: the exact text, the arguments as sent, the token, the trace of the assembly.
    const row = await lastCall("get_memory_context");
    expect(row?.result).toBe(text);
    expect(row?.arguments).toEqual({ message });
    expect(row?.tokenId).toBe(secrets.read.id);
    expect(row?.isError).toBe(false);
    expect((row?.trace as { memoryLines?: string[] } | undefined)?.memoryLines).toEqual(chatLines);
    expect(row?.returnedMemoryIds).toContain(adaMemories.peanuts);
    // Owner-scoped: the External calls page's queries show Bob none of Ada's calls.
    await expect(getMcpCall(db, { userId: bob.id, callId: row?.id ?? "" })).rejects.toMatchObject({
      code: "not_found:mcp_call",
    });
    expect(await listMcpCalls(db, { userId: bob.id, limit: 50 })).toEqual([]);
    expect((await getMcpCall(db, { userId: ada.id, callId: row?.id ?? "" })).tokenName).toBe("Claude Desktop");
    // The chat's rule: a memory handed to a consumer counts one access.
    const after = await db.select().from(memoryUsage).where(eq(memoryUsage.memoryId, adaMemories.peanuts));
    expect(after[0]?.accessCount).toBe((before[0]?.accessCount ?? 0) + 1);
  });

  it("search_memories and list_memories answer with the chat's memory tools, owner-scoped", async () => {
    const searched = await call(reader, "search_memories", { query: "Porto Portugal" });
    const found = JSON.parse(textOf(searched)) as { memories: { id: string; content: string }[]; note: string };
    expect(found.memories.map((memory) => memory.id)).toContain(adaMemories.porto);
    expect(found.note).toMatch(/matched "Porto Portugal"/);
    expect((await lastCall("search_memories"))?.result).toBe(textOf(searched));

    const listed = await call(reader, "list_memories", { limit: 10 });
    const all = JSON.parse(textOf(listed)) as { memories: { id: string }[] };
    expect(all.memories.map((memory) => memory.id).sort()).toEqual(Object.values(adaMemories).sort());
    expect(all.memories.map((memory) => memory.id)).not.toContain(bobMemory);
    const row = await lastCall("list_memories");
    expect(row?.result).toBe(textOf(listed));
    expect((row?.trace as { returned?: number } | undefined)?.returned).toBe(3);

    // The memories page says who read a memory.
    const page = await ada.client.request("GET", "/api/memories");
    const porto = (page.json as { memories: { id: string; readBy: string[] }[] }).memories.find(
      (memory) => memory.id === adaMemories.porto,
    );
    expect(porto?.readBy).toEqual(["Claude Desktop"]);
  });

  it("refuses bad arguments with a tool error, and records the refusal as sent and as received", async () => {
    const recorded = (await db.select().from(mcpCalls)).length;
    const result = await call(reader, "list_memories", { limit: 0 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/limit/);
    expect(textOf(result)).not.toMatch(/at \S+\.ts:\d+/);
    const rows = await db.select().from(mcpCalls);
    expect(rows).toHaveLength(recorded + 1);
    const refusal = await lastCall("list_memories");
    expect(refusal).toMatchObject({
      tokenId: secrets.read.id,
      arguments: { limit: 0 },
      result: textOf(result),
      isError: true,
      trace: null,
      returnedMemoryIds: [],
    });
  });

  it("get_memory_context gives each line the id of the memory it renders, also when two render alike", async () => {
    const carol = await registerAndSignIn(server.url, "carol");
    const twins = [
      await addMemory(carol, "Carol keeps the spare house key under the blue flowerpot"),
      await addMemory(carol, "Carol keeps the spare house key under the blue flowerpot"),
    ];
    const token = await createToken(carol, "Carol's agent", "read");
    const client = await connect(token.secret);
    const result = await call(client, "get_memory_context", { message: "Where is the spare house key?" });
    const output = JSON.parse(textOf(result)) as { memories: { id: string; line: string }[] };
    expect(output.memories).toHaveLength(2);
    expect(output.memories[0]?.line).toBe(output.memories[1]?.line);
    expect(output.memories.map((memory) => memory.id).sort()).toEqual([...twins].sort());
  });

  /** One JSON-RPC message POSTed as the MCP transport would, with the token; the JSON-RPC answer. */
  const rpc = async (secret: string, message: unknown) => {
    const res = await new HttpClient(server.url).request("POST", "/api/mcp", {
      json: message,
      headers: { accept: "application/json, text/event-stream", authorization: `Bearer ${secret}` },
    });
    expect(res.status, res.text).toBe(200);
    return res.json as { id: unknown; result?: ToolResult; error?: { code: number; message: string } };
  };
  const toolsCall = (id: number, name: string, args: unknown) => ({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name, arguments: args },
  });

  it("records a refused call whatever its arguments hold — NUL and lone surrogates too — exactly as sent", async () => {
    const sent = { limit: "\u0000", "key\u0000": "\ud800", note: "a lone low \udc00, a pair 😀 and a NUL \u0000" };
    const answer = await rpc(secrets.read.secret, toolsCall(7, "list_memories", sent));
    expect(answer.result?.isError).toBe(true);
    const row = await lastCall("list_memories");
    expect(row?.arguments).toEqual(sent);
    expect(row?.result).toBe(answer.result?.content[0]?.text);
    expect(row?.isError).toBe(true);

    // A string the schema would pass but Postgres text cannot hold is refused by the schema too.
    const query = "peanuts\u0000";
    const searched = await rpc(secrets.read.secret, toolsCall(9, "search_memories", { query }));
    expect(searched.result?.isError).toBe(true);
    expect(searched.result?.content[0]?.text).toMatch(/NUL/);
    expect(await lastCall("search_memories")).toMatchObject({ arguments: { query }, isError: true });
  });

  it.each([
    ["a string", "args"],
    ["an array", [1]],
    ["a number", 5],
    ["null", null],
  ])("arguments that are %s answer -32602 invalid params in one line, recorded as sent", async (_, args) => {
    const answer = await rpc(secrets.read.secret, toolsCall(8, "search_memories", args));
    expect(answer.id).toBe(8);
    expect(answer.error?.code).toBe(-32602);
    expect(answer.error?.message).toMatch(/arguments/);
    expect(answer.error?.message).not.toContain("\n");
    const row = await lastCall("search_memories");
    expect(row).toMatchObject({ tokenId: secrets.read.id, result: answer.error?.message, isError: true, trace: null });
    expect(row?.arguments).toEqual(args);
  });

  it("remember stores a user-stated memory from the token through consolidation; a repeat is skipped", async () => {
    const content = "Training for the Lisbon marathon in October";
    const first = await call(writer, "remember", { content, type: "goal" });
    expect(first.isError, textOf(first)).toBeFalsy();
    const stored = JSON.parse(textOf(first)) as { action: string; memories: { id: string; content: string }[] };
    expect(stored.action).toBe("add");
    const id = stored.memories[0]?.id ?? "";
    const [row] = await db.select().from(memories).where(eq(memories.id, id));
    expect(row).toMatchObject({
      userId: ada.id,
      content,
      type: "goal",
      provenance: "user_stated",
      status: "active",
      sourceAccessTokenId: secrets.write.id,
    });
    const page = await ada.client.request("GET", "/api/memories");
    const listed = (page.json as { memories: { id: string; sourceTokenName: string | null }[] }).memories.find(
      (memory) => memory.id === id,
    );
    expect(listed?.sourceTokenName).toBe("Cursor");

    const again = JSON.parse(textOf(await call(writer, "remember", { content }))) as { action: string };
    expect(again.action).toBe("skip");
    const same = await db
      .select()
      .from(memories)
      .where(and(eq(memories.userId, ada.id), eq(memories.content, content)));
    expect(same).toHaveLength(1);
    expect((await lastCall("remember"))?.result).toBe(textOf(await call(writer, "remember", { content })));
  });

  it("remember gives the memory a title of its own, and the prompt line says each once", async () => {
    const fay = await registerAndSignIn(server.url, "fay");
    const client = await connect((await createToken(fay, "Fay's agent", "read+write")).secret);
    const content = "My bike lock code word is ZEBRA-RW-9";
    const stored = JSON.parse(textOf(await call(client, "remember", { content }))) as {
      memories: { id: string; title: string; content: string }[];
    };
    // The offline model's title (a model's, with OPENAI_API_KEY): what the memory is, not the memory again.
    expect(stored.memories[0]).toMatchObject({ title: "Bike lock code word", content });
    const [row] = await db.select().from(memories).where(eq(memories.userId, fay.id));
    expect(row?.title).toBe("Bike lock code word");
    const context = JSON.parse(
      textOf(await call(client, "get_memory_context", { message: "What is my bike lock code word?" })),
    ) as { memories: { line: string }[] };
    expect(context.memories.map((memory) => memory.line)).toEqual([`• Bike lock code word: ${content}`]);
  });

  it("eight parallel identical remember calls store the fact once: one add, seven skips", async () => {
    const dave = await registerAndSignIn(server.url, "dave");
    const client = await connect((await createToken(dave, "Dave's agent", "read+write")).secret);
    const content = "I am allergic to penicillin";
    const results = await Promise.all(Array.from({ length: 8 }, () => call(client, "remember", { content })));
    const actions = results.map((result) => {
      expect(result.isError, textOf(result)).toBeFalsy();
      return (JSON.parse(textOf(result)) as { action: string }).action;
    });
    expect(actions.sort()).toEqual(["add", ...Array(7).fill("skip")]);
    const stored = await db
      .select()
      .from(memories)
      .where(and(eq(memories.userId, dave.id), eq(memories.status, "active")));
    expect(stored.map((memory) => memory.content)).toEqual([content]);
  });

  it("a write whose record cannot be written does not stand: the client is told it failed, and nothing changed", async () => {
    const erin = await registerAndSignIn(server.url, "erin");
    const kept = await addMemory(erin, "Erin plays the cello");
    const client = await connect((await createToken(erin, "Erin's agent", "read+write")).secret);
    // The record of a write fails (as a full disk or a lost connection would make it fail).
    await db.execute(sql`CREATE FUNCTION refuse_write_record() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'no record of writes in this test'; END $$`);
    await db.execute(sql`CREATE TRIGGER refuse_write_record BEFORE INSERT ON mcp_calls FOR EACH ROW
      WHEN (NEW.tool IN ('remember', 'forget')) EXECUTE FUNCTION refuse_write_record()`);
    try {
      const remembered = await call(client, "remember", { content: "Erin's cello is named Bruno" });
      expect(remembered.isError).toBe(true);
      expect(textOf(remembered)).toBe("remember failed on Lifeline's side; the error was logged.");
      const forgot = await call(client, "forget", { memory_id: kept });
      expect(forgot.isError).toBe(true);
      const rows = await db.select().from(memories).where(eq(memories.userId, erin.id));
      expect(rows.map((row) => [row.content, row.status])).toEqual([["Erin plays the cello", "active"]]);
    } finally {
      await db.execute(sql`DROP TRIGGER refuse_write_record ON mcp_calls`);
      await db.execute(sql`DROP FUNCTION refuse_write_record()`);
    }
  });

  it("a read-only token's writes are tool errors and change nothing", async () => {
    const before = await db.select().from(memories).where(eq(memories.userId, ada.id));
    const remembered = await call(reader, "remember", { content: "Ada dislikes cilantro" });
    expect(remembered.isError).toBe(true);
    expect(textOf(remembered)).toMatch(/read-only/);
    const forgot = await call(reader, "forget", { memory_id: adaMemories.ocaml });
    expect(forgot.isError).toBe(true);
    expect(textOf(forgot)).toMatch(/read-only/);
    const after = await db.select().from(memories).where(eq(memories.userId, ada.id));
    expect(after).toEqual(before);
    expect((await lastCall("forget"))?.result).toBe(textOf(forgot));
  });

  it("another user's memory ids are not found", async () => {
    const result = await call(writer, "forget", { memory_id: bobMemory });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("Memory not found");
    const [row] = await db.select().from(memories).where(eq(memories.id, bobMemory));
    expect(row?.status).toBe("active");
    // Bob's token sees Bob's memories only.
    const bobs = await connect(secrets.bob.secret);
    const listed = JSON.parse(textOf(await call(bobs, "list_memories", {}))) as { memories: { id: string }[] };
    expect(listed.memories.map((memory) => memory.id)).toEqual([bobMemory]);
  });

  it("forget deletes through the delete path, and once the undo window closes the memory's text leaves every recorded call", async () => {
    const result = await call(writer, "forget", { memory_id: adaMemories.peanuts });
    expect(result.isError, textOf(result)).toBeFalsy();
    const [row] = await db.select().from(memories).where(eq(memories.id, adaMemories.peanuts));
    expect(row?.status).toBe("deleted");
    expect(row?.redactAt).not.toBeNull();
    // The sweep as it runs once the window has closed.
    await redactDueDeletions(db, { now: new Date(Date.now() + deletionConfig.undoWindowMs + 1_000), batch: 50 });
    const calls = await db.select().from(mcpCalls).where(eq(mcpCalls.userId, ada.id));
    const mentioning = calls.filter((c) => c.memoryIds.includes(adaMemories.peanuts));
    expect(mentioning.length).toBeGreaterThan(0);
    for (const c of mentioning) {
      expect(JSON.stringify(c)).not.toContain("allergic to peanuts");
    }
    const context = mentioning.find((c) => c.tool === "get_memory_context");
    const entry = (JSON.parse(context?.result ?? "{}") as { memories: { id: string; line: string }[] }).memories.find(
      (memory) => memory.id === adaMemories.peanuts,
    );
    expect(entry?.line).toContain(DELETED_MEMORY);
  });

  it("refuses a revoked, an expired or an unknown token, and a browser session", async () => {
    const revoked = await createToken(ada, "revoked", "read");
    const res = await ada.client.request("DELETE", `/api/access-tokens/${revoked.id}`);
    expect(res.status).toBe(204);
    await expect(connect(revoked.secret)).rejects.toThrow();

    const expired = await createToken(ada, "expired", "read");
    await db
      .update(accessTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(accessTokens.id, expired.id));
    await expect(connect(expired.secret)).rejects.toThrow();

    await expect(connect(`llt_${"A".repeat(43)}`)).rejects.toThrow();

    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } },
    };
    const headers = { accept: "application/json, text/event-stream" };
    const bySession = await ada.client.request("POST", "/api/mcp", { json: initialize, headers });
    expect(bySession.status).toBe(403);
    const anonymous = await new HttpClient(server.url).request("POST", "/api/mcp", { json: initialize, headers });
    expect(anonymous.status).toBe(401);
  });
});
