/**
 * Agent mode through POST /api/chat, over real HTTP and the real route, on PGlite and Postgres,
 * against the demo mailbox: the turn streams the agent's steps and the approval card, stores the
 * answer with its parts, writes a debug record with every model call (the first one's input being
 * the assembled context: the included memory lines and the previous messages) and every tool call,
 * and runs the extraction of the pair. Then the card's routes send exactly the approved draft.
 * An OpenAI-compatible model (a scripted server behind the registry's fetch) gets the same input
 * over HTTP, with the request's temperature; its failure is a stored error, not a stuck answer.
 */

import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { gmailOperations, memoryExtractions, messages, promptDebug, users } from "@/db/schema";
import type { AgentDebugStep } from "@/lib/agent/recorder";
import { MAIL_TOOL_NAMES } from "@/lib/agent/tools";
import { type AiRegistry, createAiRegistry, setAiRegistry } from "@/lib/ai/registry";
import { afterResponseIdle } from "@/lib/jobs/after-response";
import type { ContextTrace } from "@/lib/memory/retrieval/trace";
import { getInProcessRunner } from "@/lib/runtime";
import { DB_KINDS } from "@/tests/db";
import { insertWordVecMemories } from "@/tests/fixtures/memories";
import { chatCompletion, chatCompletionStream, type ScriptedReply } from "@/tests/fixtures/openai-compatible";
import { registerAndSignIn } from "@/tests/http-client";
import { useTestServer } from "@/tests/test-server";

process.env.AUTH_SECRET ??= "agent-chat-test-secret-0123456789abcdef";
process.env.LIFELINE_CHAT_RATE_LIMIT = "off";
process.env.LIFELINE_OFFLINE_DELAY_MS = "0";

type User = Awaited<ReturnType<typeof registerAndSignIn>>;
type ModelStep = Extract<AgentDebugStep, { type: "agent-model" }>;

/** A scripted OpenAI-compatible Chat Completions server, reached through the registry's fetch. */
function scriptedOpenAI(replies: (ScriptedReply | number | "hang")[]) {
  const bodies: { model: string; temperature?: number; messages: { role: string; content: string }[] }[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    if (!url.endsWith("/chat/completions")) return new Response("not found", { status: 404 });
    bodies.push(JSON.parse(String(init?.body)));
    const reply = replies[Math.min(bodies.length - 1, replies.length - 1)] ?? {};
    if (reply === "hang") {
      // A model that never answers: only the request's abort ends the call.
      return new Promise<Response>((_, reject) =>
        init?.signal?.addEventListener("abort", () => reject(init.signal?.reason ?? new Error("aborted"))),
      );
    }
    if (typeof reply === "number") {
      return Response.json(
        { error: { message: "the request was refused", type: "invalid_request_error" } },
        { status: reply },
      );
    }
    // The chat's agent turn asks for a stream (lib/agent/stream.ts): served as such a server streams it.
    const meta = {
      id: `chatcmpl-${bodies.length}`,
      model: "scripted",
      usage: { prompt_tokens: 100, completion_tokens: 10 },
    };
    const asked = bodies.at(-1) as { stream?: boolean } | undefined;
    return asked?.stream ? chatCompletionStream(reply, meta) : chatCompletion(reply, meta);
  };
  const remote = createAiRegistry({ OPENAI_BASE_URL: "http://scripted-openai.test/v1" }, { fetch });
  // The offline registry (its embedder made the memories), with the agent's model on the scripted server.
  const registry: AiRegistry = { ...createAiRegistry({}), openAIClientOptions: () => remote.openAIClientOptions() };
  return { registry, bodies };
}

describe.each(DB_KINDS)("agent mode through POST /api/chat on %s (demo mailbox)", (kind) => {
  const context = useTestServer(kind);
  const db = () => context.database.db;
  afterEach(async () => {
    await afterResponseIdle();
    await getInProcessRunner().idle();
    setAiRegistry(undefined);
  });

  async function userWithMemories(label: string, contents: string[]): Promise<User> {
    const user = await registerAndSignIn(context.server.url, `${label}-${kind}`);
    await insertWordVecMemories(db(), user.id, contents, { importance: 0.8 });
    return user;
  }

  async function chat(user: User, json: Record<string, unknown>) {
    const res = await fetch(`${context.server.url}/api/chat`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: user.client.cookieHeader() },
      body: JSON.stringify(json),
    });
    expect(res.status).toBe(200);
    const conversationId = res.headers.get("x-conversation-id") ?? "";
    const events = (await res.text())
      .split("\n")
      .filter((line) => line.startsWith("data: {"))
      .map((line) => JSON.parse(line.slice(6)) as { type: string; [key: string]: unknown });
    await afterResponseIdle();
    await getInProcessRunner().idle();
    const [assistant] = await db()
      .select()
      .from(messages)
      .where(and(eq(messages.conversationId, conversationId), eq(messages.role, "assistant")))
      .orderBy(messages.createdAt)
      .then((rows) => rows.slice(-1));
    if (!assistant) throw new Error("no assistant message");
    const [record] = await db().select().from(promptDebug).where(eq(promptDebug.messageId, assistant.id));
    if (!record) throw new Error("no debug record");
    return { conversationId, events, assistant, record, steps: record.modelInput as AgentDebugStep[] };
  }

  async function assistantOf(conversationId: string) {
    const [assistant] = await db()
      .select()
      .from(messages)
      .where(and(eq(messages.conversationId, conversationId), eq(messages.role, "assistant")));
    return assistant;
  }

  /**
   * An agent turn whose model asks for a tool, then never answers: returned once the second model
   * call is under way (the tool step has streamed), with the controller that presses stop.
   */
  async function hangAfterToolStep(user: User) {
    const { registry, bodies } = scriptedOpenAI([
      {
        content: null,
        tool_calls: [{ id: "call_1", type: "function", function: { name: "list_labels", arguments: "{}" } }],
      },
      "hang",
    ]);
    setAiRegistry(registry);
    const controller = new AbortController();
    const res = await fetch(`${context.server.url}/api/chat`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: user.client.cookieHeader() },
      body: JSON.stringify({ message: { text: "What labels do I have?" }, mode: "agent" }),
      signal: controller.signal,
    });
    const conversationId = res.headers.get("x-conversation-id") ?? "";
    for (let i = 0; i < 100 && bodies.length < 2; i++) await new Promise((r) => setTimeout(r, 50));
    if (bodies.length !== 2) controller.abort();
    expect(bodies).toHaveLength(2);
    return { controller, conversationId };
  }

  it("streams the steps and the approval card, records every model and tool call, extracts; Approve sends the draft", async () => {
    const user = await userWithMemories("agent", ["Maya Chen is my sister", "I sign my emails with just my initial"]);

    // Turn 1: a search.
    const first = await chat(user, { message: { text: "Find emails from Maya" }, mode: "agent" });
    expect(first.events.map((e) => e.type)).toEqual(
      expect.arrayContaining(["start", "tool-input-available", "tool-output-available", "text-delta", "finish"]),
    );
    expect(first.assistant).toMatchObject({ status: "complete" });
    expect(first.assistant.content).toMatch(/^I found \d+ emails? from Maya/);

    // Turn 2, same conversation: a reply, prepared for approval.
    const second = await chat(user, {
      conversationId: first.conversationId,
      message: { text: "Reply to Maya saying see you at 8" },
    });
    const types = second.events.map((e) => (e.type.startsWith("tool-") ? `${e.type}:${e.toolName ?? ""}` : e.type));
    expect(types.filter((t) => t !== "start-step" && t !== "finish-step")).toEqual([
      "start",
      "data-agent-mailbox",
      "tool-input-available:search_emails",
      "tool-output-available:",
      "tool-input-available:send_email",
      "tool-output-available:",
      "data-mail-approval",
      "text-start",
      "text-delta",
      "text-end",
      "finish",
    ]);
    const approval = second.events.find((e) => e.type === "data-mail-approval")?.data as {
      operationId: string;
      draft: { to: string[]; subject: string; body: string };
    };
    expect(approval.draft).toMatchObject({ to: ["Maya Chen <maya.chen@example.com>"], body: "See you at 8." });

    // The stored answer: its parts (tool steps with summaries, the card), text and status.
    expect(second.assistant.status).toBe("complete");
    expect(second.assistant.content).toMatch(/for you to approve, edit or decline below/);
    expect((second.assistant.parts as { type: string }[]).map((p) => p.type)).toEqual([
      "data-agent-mailbox",
      "dynamic-tool",
      "dynamic-tool",
      "data-mail-approval",
      "text",
    ]);
    expect((second.assistant.parts as { data?: unknown }[])[0]?.data).toEqual({ kind: "demo" });
    const readResult = (second.assistant.parts as { output?: unknown }[])[1]?.output as { snippet?: string }[];
    expect(readResult[0]).not.toHaveProperty("snippet");

    // The debug record: mode, model, and every step in order.
    expect(second.record).toMatchObject({ mode: "agent", provider: "offline", modelId: "lifeline-offline-agent-1" });
    expect(second.steps.map((s) => (s.type === "agent-tool" ? s.name : s.type))).toEqual([
      "agent-model",
      "search_emails",
      "agent-model",
      "send_email",
      "agent-model",
    ]);
    const trace = second.record.trace as ContextTrace;
    const [firstCall] = second.steps as ModelStep[];
    const prompt = firstCall?.params.prompt ?? [];
    // The FIRST model input is the assembled context: the memory lines the trace includes…
    expect(trace.memoryLines.length).toBeGreaterThan(0);
    expect(prompt[0]?.role).toBe("system");
    for (const line of trace.memoryLines) expect(prompt[0]?.content).toContain(line);
    expect(trace.candidates.filter((c) => c.fate === "included").map((c) => c.content)).toContain(
      "Maya Chen is my sister",
    );
    // …and the previous user and assistant messages, then the new one.
    expect(prompt.slice(1).map((m) => `${m.role}: ${m.content}`)).toEqual([
      "user: Find emails from Maya",
      `assistant: ${first.assistant.content}`,
      "user: Reply to Maya saying see you at 8",
    ]);
    expect(firstCall?.params.tools).toEqual([...MAIL_TOOL_NAMES]);
    // Later calls carry the tool results the model received.
    const third = second.steps[4] as ModelStep;
    expect(third.params.prompt.filter((m) => m.role === "tool").map((m) => m.name)).toEqual([
      "search_emails",
      "send_email",
    ]);
    // The offline agent model reports each call's usage, as a provider does; the record keeps the total.
    const calls = second.steps.filter((s): s is ModelStep => s.type === "agent-model");
    for (const call of calls) {
      expect(call.usage?.inputTokens).toBeGreaterThan(0);
      expect(call.usage?.outputTokens).toBeGreaterThan(0);
    }
    // Each later call reads what the earlier ones read, and more.
    expect(calls[1]?.usage?.inputTokens).toBeGreaterThan(calls[0]?.usage?.inputTokens ?? 0);
    const sum = (key: "inputTokens" | "outputTokens" | "totalTokens") =>
      calls.reduce((total, call) => total + (call.usage?.[key] ?? 0), 0);
    expect(second.record).toMatchObject({
      inputTokens: sum("inputTokens"),
      outputTokens: sum("outputTokens"),
      totalTokens: sum("totalTokens"),
    });

    // Every tool call is logged against the answer; the send is pending.
    const logged = await db()
      .select()
      .from(gmailOperations)
      .where(eq(gmailOperations.messageId, second.assistant.id))
      .orderBy(gmailOperations.createdAt);
    expect(logged.map((op) => `${op.operation}:${op.status}:${op.mailbox}`)).toEqual([
      "search_emails:succeeded:demo",
      "send_email:pending_confirmation:demo",
    ]);

    // Extraction ran on the user's message and the agent's final answer.
    const [extraction] = await db()
      .select()
      .from(memoryExtractions)
      .where(eq(memoryExtractions.assistantMessageId, second.assistant.id));
    expect(extraction?.status).toMatch(/succeeded|skipped/);

    // Approve exactly the shown draft: sent once, filed in the demo mailbox's Sent.
    const approve = () =>
      user.client.request("POST", `/api/agent/sends/${approval.operationId}/approve`, {
        json: { draft: { ...approval.draft, cc: [], bcc: [] } },
      });
    const approved = await approve();
    expect(approved.status).toBe(200);
    expect((approved.json as { send: { status: string } }).send.status).toBe("succeeded");
    expect((await approve()).status).toBe(409);

    const sent = await chat(user, { conversationId: first.conversationId, message: { text: "Show my sent emails" } });
    expect(sent.assistant.content).toContain("**Re: Dinner on Friday?** — to Maya Chen");
  });

  it("regenerating an answer, editing its question or deleting its chat cancels the email it prepared (its card says so); a chat with agent steps can be deleted", async () => {
    const user = await userWithMemories("agent-retry", []);
    const first = await chat(user, { message: { text: "Email Tom saying the keys are under the mat" }, mode: "agent" });
    const pendingOf = (messageId: string | null) =>
      db()
        .select()
        .from(gmailOperations)
        .where(and(eq(gmailOperations.userId, user.id), eq(gmailOperations.operation, "send_email")))
        .then((rows) => rows.filter((row) => messageId === null || row.messageId === messageId));
    const [before] = await pendingOf(first.assistant.id);
    expect(before?.status).toBe("pending_confirmation");

    // Regenerating: the old answer stays as a version, its email cancelled (its card reads it so).
    const again = await chat(user, { conversationId: first.conversationId, retryOf: first.assistant.id });
    expect(again.assistant.id).not.toBe(first.assistant.id);
    const all = await pendingOf(null);
    expect(all.find((op) => op.id === before?.id)).toMatchObject({
      status: "cancelled",
      messageId: first.assistant.id,
      error: "its answer was regenerated",
    });
    expect(all.find((op) => op.messageId === again.assistant.id)?.status).toBe("pending_confirmation");
    const approve = await user.client.request("POST", `/api/agent/sends/${before?.id}/approve`, {
      json: { draft: before?.params },
    });
    expect(approve.status).toBe(409);
    const card = await user.client.request("GET", `/api/agent/sends/${before?.id}`);
    expect((card.json as { send: { status: string; error: string } }).send).toMatchObject({
      status: "cancelled",
      error: "its answer was regenerated",
    });

    // Editing the question: the email of the answer below it is cancelled, the edit's answer prepares its own.
    const edited = await chat(user, {
      conversationId: first.conversationId,
      editOf: first.assistant.parentMessageId,
      message: { text: "Email Tom saying the keys are with Ana" },
    });
    const afterEdit = await pendingOf(null);
    expect(afterEdit.find((op) => op.messageId === again.assistant.id)).toMatchObject({
      status: "cancelled",
      error: "its question was edited",
    });
    expect(afterEdit.find((op) => op.messageId === edited.assistant.id)?.status).toBe("pending_confirmation");

    // Deleting the chat cancels the one still waiting.
    expect((await user.client.request("DELETE", `/api/conversations/${first.conversationId}`)).status).toBe(204);
    expect((await pendingOf(null)).map((op) => op.status)).toEqual(["cancelled", "cancelled", "cancelled"]);

    // Deleting the account takes the log with it, whatever still points where.
    const other = await chat(user, { message: { text: "Email Tom saying hello" }, mode: "agent" });
    expect(other.assistant.status).toBe("complete");
    await db().delete(users).where(eq(users.id, user.id));
    expect(await pendingOf(null)).toEqual([]);
  });

  it("an OpenAI-compatible model receives the same context over HTTP, at the request's temperature", async () => {
    const user = await userWithMemories("agent-http", ["Maya Chen is my sister"]);
    const { registry, bodies } = scriptedOpenAI([
      {
        content: null,
        tool_calls: [
          {
            id: "call_1",
            type: "function",
            function: { name: "search_emails", arguments: JSON.stringify({ query: "from:maya", max: 3 }) },
          },
        ],
      },
      { content: "Maya asked about dinner on Friday." },
    ]);
    setAiRegistry(registry);
    const turn = await chat(user, { message: { text: "Any news from my sister?" }, mode: "agent", temperature: 0.2 });

    expect(turn.assistant).toMatchObject({ status: "complete", content: "Maya asked about dinner on Friday." });
    expect(bodies).toHaveLength(2);
    expect(bodies[0]?.temperature).toBe(0.2);
    const trace = turn.record.trace as ContextTrace;
    expect(trace.memoryLines.length).toBeGreaterThan(0);
    for (const line of trace.memoryLines) expect(bodies[0]?.messages[0]?.content).toContain(line);
    expect(bodies[0]?.messages.at(-1)).toMatchObject({ role: "user", content: "Any news from my sister?" });
    // The recorder's capture is what went over the wire.
    const [firstCall] = turn.steps as ModelStep[];
    expect(firstCall?.params.prompt.map((m) => m.content)).toEqual(bodies[0]?.messages.map((m) => m.content));
    expect(bodies[1]?.messages.find((m) => m.role === "tool")?.content).toContain("Dinner on Friday?");
    expect(turn.record).toMatchObject({ inputTokens: 200, outputTokens: 20, totalTokens: 220 });
    expect((turn.steps as ModelStep[]).filter((s) => s.type === "agent-model").map((s) => s.usage)).toEqual([
      { inputTokens: 100, outputTokens: 10, totalTokens: 110 },
      { inputTokens: 100, outputTokens: 10, totalTokens: 110 },
    ]);
  });

  it("stop: a client abort mid-loop ends the agent, keeps its steps and stores the answer as aborted", async () => {
    const { controller, conversationId } = await hangAfterToolStep(await userWithMemories("agent-stop", []));
    controller.abort();
    let assistant: typeof messages.$inferSelect | undefined;
    for (let i = 0; i < 100; i++) {
      assistant = await assistantOf(conversationId);
      if (assistant?.status !== "streaming") break;
      await new Promise((r) => setTimeout(r, 50));
    }
    if (!assistant) throw new Error("no assistant message");
    expect(assistant.status).toBe("aborted");
    expect((assistant.parts as { type: string; toolName?: string }[]).map((p) => p.toolName ?? p.type)).toEqual([
      "data-agent-mailbox",
      "list_labels",
    ]);
    await afterResponseIdle();
    const [record] = await db().select().from(promptDebug).where(eq(promptDebug.messageId, assistant.id));
    if (!record) throw new Error("no debug record");
    expect(record.finishReason).toBe("aborted");
    expect((record.modelInput as AgentDebugStep[]).map((s) => s.type)).toEqual([
      "agent-model",
      "agent-tool",
      "agent-model",
    ]);
  });

  it("a running answer records its progress at every step: after a tool step, while the next model call runs", async () => {
    const { controller, conversationId } = await hangAfterToolStep(await userWithMemories("agent-alive", []));
    try {
      // The interrupted-answer sweep reads updated_at: the tool step moved it past the row's creation.
      await expect
        .poll(async () => {
          const assistant = await assistantOf(conversationId);
          return assistant && assistant.status === "streaming" && assistant.updatedAt > assistant.createdAt;
        })
        .toBe(true);
    } finally {
      controller.abort();
    }
  });

  it("a model failure is a stored error with its debug record, and no extraction", async () => {
    const user = await userWithMemories("agent-fail", []);
    // A 400 (say, the context is too long) is not retried; a 5xx would be, twice, as on the text path.
    setAiRegistry(scriptedOpenAI([400]).registry);
    const turn = await chat(user, { message: { text: "Find emails from Maya" }, mode: "agent" });
    expect(turn.events.some((e) => e.type === "error")).toBe(true);
    expect(turn.assistant.status).toBe("error");
    expect(turn.record.error).toBeTruthy();
    expect(turn.steps.filter((s) => s.type === "agent-model").length).toBeGreaterThan(0);
    const extractions = await db()
      .select()
      .from(memoryExtractions)
      .where(eq(memoryExtractions.assistantMessageId, turn.assistant.id));
    expect(extractions).toEqual([]);
  });
});
