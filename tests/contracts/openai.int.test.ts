/**
 * Lifeline against OpenAI's documented contract (tests/contracts/openai-fake.ts, which refuses
 * what OpenAI refuses): text and agent turns on a reasoning model and a classic one, through a
 * real server on PGlite and Postgres, with their titles and extractions; then what the chat
 * stores and streams when the model's stream is cut, carries an error event, stops at the output
 * limit or the content filter, closes without a finish, or refuses — final at once, never
 * `streaming`. And extraction against the same server: the schema sent is strict, a refusal is
 * final with its reason, a truncated answer is retried once with the larger limit; a memory
 * remembered over MCP gets its title from a strict call too.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { extractionConfig } from "@/core/config";
import { memories, memoryExtractions, messages } from "@/db/schema";
import { createAiRegistry, setAiRegistry } from "@/lib/ai/registry";
import { answerErrorSentence } from "@/lib/chat/answer-error";
import { MODEL_CONNECTION_DROPPED } from "@/lib/chat/model-error";
import { afterResponseIdle } from "@/lib/jobs/after-response";
import { getInProcessRunner } from "@/lib/runtime";
import { DB_KINDS } from "@/tests/db";
import { registerAndSignIn } from "@/tests/http-client";
import { useTestServer } from "@/tests/test-server";
import { type ChatRequest, type Reply, type StrictOpenAi, startStrictOpenAi } from "./openai-fake";

process.env.AUTH_SECRET ??= "openai-contract-secret-0123456789abcdef";
process.env.LIFELINE_CHAT_RATE_LIMIT = "off";

const MODELS = ["gpt-5-mini", "gpt-4o-mini"] as const;

/** What the test scripts next, by the kind of call (the chat's stream, an extraction). */
const script: { answer?: Reply; agentAnswer?: Reply; extraction?: Reply[] } = {};

function reply(body: ChatRequest): Reply | undefined {
  const format = body.response_format?.json_schema?.name;
  if (format === "memory_extraction") return script.extraction?.shift();
  if (format) return undefined;
  const tools = (body.tools ?? []) as { function: { name: string } }[];
  // The agent: search the mailbox first, then answer from what the tool returned.
  if (tools.some((tool) => tool.function.name === "search_emails")) {
    if (script.answer && script.answer.kind !== "text") return script.answer;
    return body.messages.some((m) => m.role === "tool")
      ? (script.agentAnswer ?? { kind: "text", text: "Maya wrote about the trip." })
      : {
          kind: "tool-calls",
          calls: [{ id: "call_1", name: "search_emails", arguments: '{"query":"from:maya","max":5}' }],
        };
  }
  return script.answer;
}

describe.each(DB_KINDS)("the strict OpenAI contract on %s", (kind) => {
  const context = useTestServer(kind);
  let fake: StrictOpenAi;
  beforeAll(async () => {
    fake = await startStrictOpenAi(reply);
    setAiRegistry(
      createAiRegistry({
        OPENAI_BASE_URL: fake.baseURL,
        LIFELINE_CHAT_MODELS: MODELS.join(","),
        LIFELINE_EXTRACTION_MODEL: "gpt-5-mini",
      }),
    );
  });
  afterAll(async () => {
    setAiRegistry(undefined);
    await fake?.close();
  });
  afterEach(async () => {
    await afterResponseIdle();
    await getInProcessRunner().idle();
    script.answer = undefined;
    script.agentAnswer = undefined;
    script.extraction = undefined;
  });

  async function turn(label: string, json: Record<string, unknown>) {
    const user = await registerAndSignIn(context.server.url, `${label}-${kind}`);
    const from = fake.requests.length;
    const res = await fetch(`${context.server.url}/api/chat`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: user.client.cookieHeader() },
      body: JSON.stringify({ temperature: 0.7, ...json }),
    });
    expect(res.status).toBe(200);
    const sse = await res.text();
    // Read as soon as the response ends: the answer is final by then, whatever happened.
    const [answer] = await context.database.db
      .select()
      .from(messages)
      .where(and(eq(messages.userId, user.id), eq(messages.role, "assistant")));
    if (!answer) throw new Error("no answer stored");
    return { user, sse, answer, requests: () => fake.requests.slice(from) };
  }

  it.each(MODELS)(
    "a text turn and an agent turn on %s succeed, and so do their title and extraction",
    async (model) => {
      script.answer = { kind: "text", text: "Hello there." };
      const text = await turn(`text-${model}`, { message: { text: "I live in Lisbon." }, model });
      expect(text.answer).toMatchObject({ status: "complete", content: "Hello there.", notice: null });
      const agent = await turn(`agent-${model}`, { message: { text: "Find emails from Maya" }, model, mode: "agent" });
      expect(agent.answer).toMatchObject({ status: "complete", notice: null });
      expect(agent.answer.content).toContain("Maya wrote about the trip.");
      await afterResponseIdle();
      await getInProcessRunner().idle();

      const chats = [...text.requests(), ...agent.requests()].filter((r) => r.path.endsWith("/chat/completions"));
      // Nothing Lifeline sent was refused: the answers, the agent's calls, titles, extractions.
      expect(chats.map((r) => r.refused)).toEqual(chats.map(() => null));
      const answers = chats.filter((r) => (r.body as ChatRequest).model === model && r.body.stream === true);
      expect(answers.length).toBeGreaterThanOrEqual(3); // the text answer, the agent's two calls
      const reasoning = model === "gpt-5-mini";
      for (const request of answers) {
        const body = request.body as ChatRequest;
        // What core/model-capabilities.ts says the id takes, on both paths.
        expect(body.temperature).toBe(reasoning ? undefined : 0.7);
        expect(body.messages[0]?.role).toBe(reasoning ? "developer" : "system");
        expect(body.max_tokens).toBeUndefined();
      }
      const structured = chats.filter((r) => r.body.response_format !== undefined).map((r) => r.body.response_format);
      expect(structured).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            json_schema: expect.objectContaining({ name: "memory_extraction", strict: true }),
          }),
          expect.objectContaining({
            json_schema: expect.objectContaining({ name: "conversation_title", strict: true }),
          }),
        ]),
      );
      const [extraction] = await context.database.db
        .select()
        .from(memoryExtractions)
        .where(eq(memoryExtractions.assistantMessageId, text.answer.id));
      expect(extraction?.status).toBe("succeeded");
    },
  );

  it("a stream cut mid-answer ends the answer `error` at once, keeps its text, says the connection dropped, and extracts the pair", async () => {
    script.answer = { kind: "cut", text: "The first half of the answer" };
    const cut = await turn("cut", { message: { text: "I work as a nurse." }, model: "gpt-4o-mini" });
    expect(cut.answer).toMatchObject({
      status: "error",
      content: "The first half of the answer",
      error: MODEL_CONNECTION_DROPPED,
    });
    // The client gets an error event it can show (and offer Retry on), not a torn stream.
    expect(cut.sse).toContain(
      `"type":"error","errorText":"The connection to the model dropped before the answer was finished."`,
    );
    await afterResponseIdle();
    await getInProcessRunner().idle();
    const [extraction] = await context.database.db
      .select()
      .from(memoryExtractions)
      .where(eq(memoryExtractions.assistantMessageId, cut.answer.id));
    expect(extraction?.status).toBe("succeeded");
  });

  it("the agent's stream cut mid-call ends its answer `error` at once saying the connection dropped", async () => {
    script.answer = { kind: "cut", text: "Looking" };
    const cut = await turn("agent-cut", {
      message: { text: "Find emails from Maya" },
      model: "gpt-4o-mini",
      mode: "agent",
    });
    expect(cut.answer).toMatchObject({ status: "error", error: MODEL_CONNECTION_DROPPED });
  });

  it("the agent's final answer cut at the output limit is final with its notice", async () => {
    script.agentAnswer = { kind: "text", text: "Maya wrote about", finish: "length" };
    const cut = await turn("agent-length", {
      message: { text: "Find emails from Maya" },
      model: "gpt-5-mini",
      mode: "agent",
    });
    expect(cut.answer).toMatchObject({ status: "complete", notice: "length", error: null });
    expect(cut.answer.content).toContain("Maya wrote about");
  });

  it("an in-stream error event is stored with its message, and the chat is told in one plain sentence", async () => {
    script.answer = {
      kind: "error-event",
      text: "Partly",
      error: { message: "The server had an error while processing your request.", type: "server_error" },
    };
    const failed = await turn("error-event", { message: { text: "Hi" }, model: "gpt-5-mini" });
    expect(failed.answer).toMatchObject({ status: "error", content: "Partly" });
    expect(failed.answer.error).toContain("The server had an error while processing your request.");
    // The provider's own text stays in the record (Inspect); the stream says what happened, in words.
    expect(failed.sse).toContain(answerErrorSentence(failed.answer.error));
    expect(failed.sse).not.toContain("The server had an error while processing your request.");
    expect(failed.sse).not.toContain("[object Object]");
  });

  it.each([
    ["length", { kind: "text", text: "An answer that ran", finish: "length" }, "length"],
    ["content_filter", { kind: "text", text: "An answer that", finish: "content_filter" }, "content-filter"],
    ["no finish reason", { kind: "text", text: "An answer with no end", finish: null }, "no-finish"],
    ["a refusal", { kind: "refusal", refusal: "I can't help with that." }, "refusal"],
  ] as const)("finish %s: the answer is final with its notice", async (label, answer, notice) => {
    script.answer = answer as Reply;
    const { answer: stored } = await turn(`finish-${label.replace(/\W+/g, "-")}`, {
      message: { text: "Hi" },
      model: "gpt-4o-mini",
    });
    expect(stored).toMatchObject({ status: "complete", notice, error: null });
    expect(stored.content).toBe(answer.kind === "refusal" ? answer.refusal : answer.text);
  });

  async function extractionOf(label: string, replies: Reply[]) {
    script.answer = { kind: "text", text: "Noted." };
    script.extraction = replies;
    const { answer } = await turn(label, { message: { text: "My sister is called Maya." }, model: "gpt-4o-mini" });
    await afterResponseIdle();
    await getInProcessRunner().idle();
    const [row] = await context.database.db
      .select()
      .from(memoryExtractions)
      .where(eq(memoryExtractions.assistantMessageId, answer.id));
    return { row };
  }

  it("an extraction the model refuses fails at once, its reason kept", async () => {
    const { row } = await extractionOf("refuse", [{ kind: "refusal", refusal: "I won't store personal data." }]);
    expect(row).toMatchObject({ status: "failed", attempts: 1 });
    expect(row?.lastError).toContain("refused");
    expect(row?.lastError).toContain("I won't store personal data.");
  });

  it("a truncated extraction is retried once with the larger output limit, then fails naming the cause", async () => {
    const cutJson = { kind: "json", content: '{"memories":[{"title":"Sis', finish: "length" } as const;
    const before = fake.requests.length;
    const { row } = await extractionOf("truncate", [cutJson, cutJson]);
    const asked = fake.requests
      .slice(before)
      .filter((r) => (r.body as ChatRequest).response_format?.json_schema?.name === "memory_extraction")
      .map((r) => r.body.max_completion_tokens);
    expect(asked).toEqual([extractionConfig.maxOutputTokens, extractionConfig.retryMaxOutputTokens]);
    expect(row).toMatchObject({ status: "failed", attempts: 1 });
    expect(row?.lastError).toContain("cut off at the output limit");
  });

  it("a memory remembered over MCP is titled by the extraction model, with a strict memory_title call", async () => {
    const user = await registerAndSignIn(context.server.url, `remember-${kind}`);
    const created = await user.client.request("POST", "/api/access-tokens", {
      json: { name: "agent", scope: "read+write" },
    });
    const { secret } = created.json as { secret: string };
    const before = fake.requests.length;
    const content = "My bike lock code word is ZEBRA-RW-9";
    const res = await user.client.request("POST", "/api/mcp", {
      json: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "remember", arguments: { content } } },
      headers: { accept: "application/json, text/event-stream", authorization: `Bearer ${secret}` },
    });
    expect(res.status, res.text).toBe(200);
    const titleCalls = fake.requests.slice(before).flatMap((r) => {
      const format = (r.body as ChatRequest).response_format?.json_schema;
      return format?.name === "memory_title" ? [[r.refused, format.strict]] : [];
    });
    expect(titleCalls).toEqual([[null, true]]);
    const [memory] = await context.database.db.select().from(memories).where(eq(memories.userId, user.id));
    expect(memory).toMatchObject({ title: "Bike lock code", content });
  });

  it("a truncated extraction that fits the larger limit succeeds", async () => {
    const { row } = await extractionOf("truncate-once", [
      { kind: "json", content: '{"memories":[', finish: "length" },
      { kind: "json", content: { memories: [] } },
    ]);
    expect(row).toMatchObject({ status: "succeeded", attempts: 1 });
  });
});
