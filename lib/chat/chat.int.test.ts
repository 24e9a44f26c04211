/**
 * POST /api/chat over real HTTP, through the real route, on PGlite and Postgres, with a scripted
 * MockLanguageModelV4 in place of the provider: what the model received is compared with the
 * debug record, and failures (retrieval, model mid-stream, client abort) are injected.
 */

import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { simulateReadableStream } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { deletionConfig, memoryToolsConfig } from "@/core/config";
import { withUsage } from "@/db/queries/memory-usage";
import { redactDueDeletions } from "@/db/queries/redaction";
import { conversations, memories, memoryExtractions, messages, promptDebug, users } from "@/db/schema";
import { toCapturedParams } from "@/lib/ai/capture";
import { type AiRegistry, createAiRegistry, setAiRegistry } from "@/lib/ai/registry";
import { afterResponseIdle } from "@/lib/jobs/after-response";
import type { ContextTrace } from "@/lib/memory/retrieval/trace";
import { countTokens } from "@/lib/memory/tokens";
import { getInProcessRunner } from "@/lib/runtime";
import { DB_KINDS } from "@/tests/db";
import { insertMemories, insertWordVecMemories, sparseVector } from "@/tests/fixtures/memories";
import { registerAndSignIn } from "@/tests/http-client";
import { useTestServer } from "@/tests/test-server";

process.env.AUTH_SECRET ??= "chat-test-secret-0123456789abcdef";
process.env.LIFELINE_CHAT_RATE_LIMIT = "off";
process.env.LIFELINE_OFFLINE_DELAY_MS = "0";

const usage = {
  inputTokens: { total: 42, noCache: 42, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 7, text: 7, reasoning: undefined },
};

function textStream(words: string[], { error, delayMs = 0 }: { error?: Error; delayMs?: number } = {}) {
  const chunks: LanguageModelV4StreamPart[] = [
    { type: "stream-start", warnings: [] },
    { type: "text-start", id: "t" },
    ...words.map((w) => ({ type: "text-delta" as const, id: "t", delta: w })),
  ];
  if (error) chunks.push({ type: "error", error });
  else
    chunks.push(
      { type: "text-end", id: "t" },
      { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage },
    );
  return { stream: simulateReadableStream({ chunks, chunkDelayInMs: delayMs }) };
}

function registryWith(model: MockLanguageModelV4, embedText?: AiRegistry["embedText"]): AiRegistry {
  const base = createAiRegistry({});
  return { ...base, getLanguageModel: () => model, ...(embedText ? { embedText } : {}) };
}

describe.each(DB_KINDS)("POST /api/chat on %s", (kind) => {
  const context = useTestServer(kind);
  const db = () => context.database.db;
  // Each turn leaves extraction and titling behind: finish them before the next test (or teardown).
  afterEach(async () => {
    await afterResponseIdle();
    await getInProcessRunner().idle();
    setAiRegistry(undefined);
  });

  async function userWithMemories(label: string, contents: string[]) {
    const user = await registerAndSignIn(context.server.url, `${label}-${kind}`);
    await insertWordVecMemories(db(), user.id, contents, { importance: 0.7 });
    return user;
  }

  async function post(user: Awaited<ReturnType<typeof userWithMemories>>, json: unknown, signal?: AbortSignal) {
    return fetch(`${context.server.url}/api/chat`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: user.client.cookieHeader() },
      body: JSON.stringify(json),
      signal,
    });
  }

  async function waitFor<T>(read: () => Promise<T | undefined>, what: string): Promise<T> {
    for (let i = 0; i < 100; i++) {
      const value = await read();
      if (value !== undefined) return value;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`timed out waiting for ${what}`);
  }

  async function debugOf(conversationId: string) {
    const [assistant] = await db()
      .select()
      .from(messages)
      .where(and(eq(messages.conversationId, conversationId), eq(messages.role, "assistant")));
    if (!assistant) throw new Error("no assistant message");
    const [record] = await db().select().from(promptDebug).where(eq(promptDebug.messageId, assistant.id));
    return { assistant, record };
  }

  it("stores exactly what the model received, and the memory lines the trace marks included", async () => {
    const model = new MockLanguageModelV4({ doStream: async () => textStream(["You ", "like ", "green tea."]) });
    setAiRegistry(registryWith(model));
    const user = await userWithMemories("capture", ["Prefers green tea", "Sister's name is Maya", "Works as a nurse"]);

    const res = await post(user, { message: { text: "What tea do I like?" }, temperature: 0.3, mode: "coaching" });
    expect(res.status).toBe(200);
    const conversationId = res.headers.get("x-conversation-id") ?? "";
    const sse = await res.text();
    expect(sse).toContain('"delta":"green tea."');

    const { assistant, record } = await waitFor(async () => {
      const r = await debugOf(conversationId).catch(() => undefined);
      return r?.record && r.assistant.status === "complete" ? r : undefined;
    }, "the debug record");
    expect(assistant.content).toBe("You like green tea.");
    expect(sse).toContain(assistant.id);

    // The model received exactly what the debug record stores.
    expect(model.doStreamCalls).toHaveLength(1);
    const received = toCapturedParams(model.doStreamCalls[0] as never);
    expect(record?.modelInput).toEqual([expect.objectContaining({ type: "stream", params: received })]);
    expect(received.temperature).toBe(0.3);
    expect(record).toMatchObject({ mode: "coaching", temperature: 0.3, retrievalStatus: "ok", inputTokens: 42 });

    // The memory lines in the system message are the ones the trace marks included.
    const trace = record?.trace as ContextTrace;
    const included = trace.candidates.filter((c) => c.fate === "included").map((c) => c.line);
    expect(included).toContain("• Prefers green tea");
    const prompt = received.prompt as { role: string; content: unknown }[];
    const system = String(prompt.find((m) => m.role === "system")?.content);
    const bulletLines = system.split("\n").filter((l) => l.startsWith("• "));
    expect(bulletLines).toEqual(trace.memoryLines);
    expect(new Set(bulletLines)).toEqual(new Set(included));
    // The new message is the last one the model saw.
    expect(prompt.at(-1)).toMatchObject({ role: "user", content: [{ type: "text", text: "What tea do I like?" }] });
  });

  it("a long answer stays in the next turn's history, cut in its middle, and the debug record says by how much", async () => {
    const answer = Array.from({ length: 100 }, (_, i) =>
      Array.from({ length: 80 }, (_, j) => `step${i * 80 + j}`).join(" "),
    );
    let call = 0;
    const model = new MockLanguageModelV4({
      doStream: async () => textStream(call++ === 0 ? answer.map((part) => `${part} `) : ["Shorter."]),
    });
    setAiRegistry(registryWith(model));
    const user = await userWithMemories("long-answer", []);
    const first = await post(user, { message: { text: "Write the whole plan." } });
    const conversationId = first.headers.get("x-conversation-id") ?? "";
    await first.text();
    await waitFor(async () => {
      const r = await debugOf(conversationId).catch(() => undefined);
      return r?.assistant.status === "complete" ? r : undefined;
    }, "the first answer");

    const second = await post(user, { conversationId, message: { text: "Make it shorter." } });
    expect(second.status).toBe(200);
    await second.text();
    const record = await waitFor(async () => {
      const rows = await db()
        .select({ trace: promptDebug.trace, modelInput: promptDebug.modelInput })
        .from(promptDebug)
        .innerJoin(messages, eq(messages.id, promptDebug.messageId))
        .where(eq(messages.conversationId, conversationId));
      return rows.length === 2 ? rows.find((r) => (r.trace as ContextTrace).history.length === 2) : undefined;
    }, "the second debug record");

    const trace = record.trace as ContextTrace;
    const budget = trace.config.prompt.historyTokenBudget;
    const [question, longAnswer] = trace.history;
    expect(question).toMatchObject({ role: "user", included: true });
    expect(question?.cut).toBeUndefined();
    expect(longAnswer).toMatchObject({ role: "assistant", included: true });
    expect(longAnswer?.tokens).toBeGreaterThan(budget);
    const omitted = longAnswer?.cut?.omittedTokens ?? 0;
    expect(omitted).toBeGreaterThan(0);
    expect(trace.tokens.history).toBeLessThanOrEqual(budget);
    // The model received the question, the answer's start and end around the marker, and the new message.
    expect(model.doStreamCalls).toHaveLength(2);
    const prompt = toCapturedParams(model.doStreamCalls[1] as never).prompt as {
      role: string;
      content: { text: string }[];
    }[];
    expect(prompt.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    const sent = prompt[2]?.content.map((part) => part.text).join("") ?? "";
    expect(sent.startsWith("step0 step1 step2")).toBe(true);
    expect(sent.trimEnd().endsWith("step7998 step7999")).toBe(true);
    expect(sent).toContain(`[… ${omitted.toLocaleString("en-US")} tokens of this message left out …]`);
    expect(record.modelInput).toEqual([expect.objectContaining({ params: expect.objectContaining({ prompt }) })]);
  });

  it("a turn stores each message's token count with its text, and the next turn budgets by it", async () => {
    const model = new MockLanguageModelV4({ doStream: async () => textStream(["You ", "like ", "green tea."]) });
    setAiRegistry(registryWith(model));
    const user = await userWithMemories("content-tokens", []);
    const res = await post(user, { message: { text: "What tea do I like? 🍵" } });
    const conversationId = res.headers.get("x-conversation-id") ?? "";
    await res.text();
    await waitFor(async () => {
      const r = await debugOf(conversationId).catch(() => undefined);
      return r?.assistant.status === "complete" ? r : undefined;
    }, "the answer");
    const rows = await db()
      .select({ role: messages.role, content: messages.content, contentTokens: messages.contentTokens })
      .from(messages)
      .where(eq(messages.conversationId, conversationId));
    expect(rows.map((r) => [r.role, r.contentTokens]).sort()).toEqual(
      [
        ["assistant", countTokens("You like green tea.")],
        ["user", countTokens("What tea do I like? 🍵")],
      ].sort(),
    );
    // The next turn's history reads the stored counts (a count stored wrong would show here).
    await db().update(messages).set({ contentTokens: 7 }).where(eq(messages.conversationId, conversationId));
    const next = await post(user, { conversationId, message: { text: "And coffee?" } });
    await next.text();
    const trace = await waitFor(async () => {
      const traces = await db()
        .select({ trace: promptDebug.trace })
        .from(promptDebug)
        .innerJoin(messages, eq(messages.id, promptDebug.messageId))
        .where(eq(messages.conversationId, conversationId));
      return traces.map((r) => r.trace as ContextTrace).find((t) => t.history.length === 2);
    }, "the second debug record");
    expect(trace.history.map((h) => h.tokens)).toEqual([7, 7]);
  });

  it("a turn's history budget is the answering model's: a quarter of gpt-4o's window, the long answer whole", async () => {
    const answer = Array.from({ length: 40 }, (_, i) =>
      Array.from({ length: 80 }, (_, j) => `step${i * 80 + j} `).join(""),
    );
    let call = 0;
    const model = new MockLanguageModelV4({ doStream: async () => textStream(call++ === 0 ? answer : ["Shorter."]) });
    const base = registryWith(model);
    setAiRegistry({
      ...base,
      config: {
        ...base.config,
        provider: "openai",
        chatModels: [{ id: "gpt-4o", label: "gpt-4o" }],
        defaultChatModel: "gpt-4o",
      },
      isKnownChatModel: (id) => id === "gpt-4o",
    });
    const user = await userWithMemories("model-budget", []);
    const first = await post(user, { message: { text: "Write the whole plan." } });
    const conversationId = first.headers.get("x-conversation-id") ?? "";
    await first.text();
    await waitFor(async () => {
      const r = await debugOf(conversationId).catch(() => undefined);
      return r?.assistant.status === "complete" ? r : undefined;
    }, "the first answer");
    const second = await post(user, { conversationId, message: { text: "Make it shorter." } });
    await second.text();
    const trace = await waitFor(async () => {
      const rows = await db()
        .select({ trace: promptDebug.trace })
        .from(promptDebug)
        .innerJoin(messages, eq(messages.id, promptDebug.messageId))
        .where(eq(messages.conversationId, conversationId));
      return rows.map((r) => r.trace as ContextTrace).find((t) => t.history.length === 2);
    }, "the second debug record");
    expect(trace.config.prompt.historyTokenBudget).toBe(32_000);
    // Over the offline model's 2,000-token budget, and sent whole.
    expect(trace.history[1]?.tokens).toBeGreaterThan(5_000);
    expect(trace.history.map((h) => [h.included, h.cut])).toEqual([
      [true, undefined],
      [true, undefined],
    ]);
    expect(trace.tokens.history).toBe((trace.history[0]?.tokens ?? 0) + (trace.history[1]?.tokens ?? 0));
  });

  it("while memories wait for re-embedding, the model is told memory is being re-indexed, and the chat's memory line says so", async () => {
    const model = new MockLanguageModelV4({ doStream: async () => textStream(["Noted."]) });
    setAiRegistry(registryWith(model));
    const user = await userWithMemories("reindexing", []);
    // Embedded by an embedder other than the configured one (its vectors cannot be compared).
    await insertMemories(
      db(),
      ["Prefers green tea", "Lives in Porto"].map((content, i) => ({
        userId: user.id,
        content,
        embedding: sparseVector({ [i]: 1 }),
        embeddingModel: "offline/hash-ngram-v1",
      })),
    );
    const res = await post(user, { message: { text: "What tea should I buy?" } });
    const conversationId = res.headers.get("x-conversation-id") ?? "";
    await res.text();
    const { record } = await waitFor(async () => {
      const r = await debugOf(conversationId).catch(() => undefined);
      return r?.record && r.assistant.status === "complete" ? r : undefined;
    }, "the debug record");
    expect((record?.trace as ContextTrace | undefined)?.waitingForReembedding).toBe(2);

    const prompt = toCapturedParams(model.doStreamCalls[0] as never).prompt as { role: string; content: unknown }[];
    const system = String(prompt.find((m) => m.role === "system")?.content);
    expect(system).not.toMatch(/no saved memories/i);
    expect(system).toContain("memories are being re-indexed: 2 of them cannot be searched yet");

    const transcript = await user.client.request("GET", `/api/conversations/${conversationId}/messages`);
    const items = (transcript.json as { messages: { role: string; debug: { memoriesReindexing?: number } | null }[] })
      .messages;
    expect(items.find((m) => m.role === "assistant")?.debug?.memoriesReindexing).toBe(2);
  });

  it("when retrieval fails the answer still streams and the record says retrieval failed", async () => {
    const model = new MockLanguageModelV4({ doStream: async () => textStream(["Still ", "here."]) });
    setAiRegistry(
      registryWith(model, async () => {
        throw new Error("embedding service unavailable");
      }),
    );
    const user = await userWithMemories("retrieval-fails", ["Prefers green tea"]);
    const res = await post(user, { message: { text: "What tea do I like?" } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("here.");
    const { record } = await waitFor(async () => {
      const r = await debugOf(res.headers.get("x-conversation-id") ?? "").catch(() => undefined);
      return r?.record && r.record.latencyMs !== null ? r : undefined; // settled: the record is completed
    }, "the debug record");
    expect(record).toMatchObject({ retrievalStatus: "failed", retrievalError: "embedding service unavailable" });
    expect((record?.trace as ContextTrace | undefined)?.memoryLines).toEqual([]);
  });

  it("a model failure mid-stream sends a clear error event and keeps both messages, the answer with status error", async () => {
    const model = new MockLanguageModelV4({
      doStream: async () => textStream(["Partial ", "answer"], { error: new Error("upstream overloaded") }),
    });
    setAiRegistry(registryWith(model));
    const user = await userWithMemories("model-fails", []);
    const res = await post(user, { message: { text: "Tell me something" } });
    const sse = await res.text();
    expect(sse).toContain('"type":"error"');
    // One plain sentence for the person; the provider's text stays in the record (Inspect).
    expect(sse).toContain('"errorText":"The model could not answer."');
    expect(sse).not.toContain("upstream overloaded");
    const conversationId = res.headers.get("x-conversation-id") ?? "";
    const { assistant, record } = await waitFor(async () => {
      const r = await debugOf(conversationId).catch(() => undefined);
      return r?.record && r.record.latencyMs !== null ? r : undefined; // settled: the record is completed
    }, "the error record");
    expect(assistant).toMatchObject({ status: "error", content: "Partial answer", error: "upstream overloaded" });
    expect(record).toMatchObject({ error: "upstream overloaded", finishReason: "error" });
    const rows = await db().select().from(messages).where(eq(messages.conversationId, conversationId));
    expect(rows.find((m) => m.role === "user")).toMatchObject({ content: "Tell me something", status: "complete" });
  });

  it("retrying a failed answer asks the same stored question again, as a new version of the answer", async () => {
    let calls = 0;
    const model = new MockLanguageModelV4({
      doStream: async () =>
        ++calls === 1 ? textStream(["Half"], { error: new Error("flaky upstream") }) : textStream(["Second ", "try."]),
    });
    setAiRegistry(registryWith(model));
    const user = await userWithMemories("retry", []);
    const first = await post(user, { message: { text: "Are you there?" } });
    await first.text();
    const conversationId = first.headers.get("x-conversation-id") ?? "";
    const { assistant: failed } = await waitFor(async () => {
      const r = await debugOf(conversationId).catch(() => undefined);
      return r?.record && r.record.latencyMs !== null ? r : undefined; // settled: the record is completed
    }, "the failed answer");
    expect(failed.status).toBe("error");

    const second = await post(user, { conversationId, retryOf: failed.id });
    expect(second.status).toBe(200);
    await second.text();
    const rows = await waitFor(async () => {
      const all = await db().select().from(messages).where(eq(messages.conversationId, conversationId));
      return all.some((m) => m.role === "assistant" && m.status === "complete") ? all : undefined;
    }, "the second answer");
    const [question] = rows.filter((m) => m.role === "user");
    expect(rows.filter((m) => m.role === "user").map((m) => m.content)).toEqual(["Are you there?"]);
    // Both answers are versions under the one question; the failed one keeps its record.
    expect(
      rows
        .filter((m) => m.role === "assistant")
        .map((m) => [m.content, m.status, m.parentMessageId])
        .sort(),
    ).toEqual([
      ["Half", "error", question?.id],
      ["Second try.", "complete", question?.id],
    ]);
    expect(await db().select().from(promptDebug).where(eq(promptDebug.messageId, failed.id))).toHaveLength(1);
    // The question is asked once: the model saw it as the new message, not also in the history.
    const prompt = toCapturedParams(model.doStreamCalls[1] as never).prompt as { role: string }[];
    expect(prompt.filter((m) => m.role === "user")).toHaveLength(1);

    // A user message is not an answer to regenerate: 404, nothing written.
    const wrong = await post(user, { conversationId, retryOf: question?.id });
    expect(wrong.status).toBe(404);
    expect(await db().select().from(messages).where(eq(messages.conversationId, conversationId))).toHaveLength(3);
  });

  /** Reads the response to its end, then waits until its conversation's newest answer is complete with its debug record completed. */
  async function settled(response: Response) {
    await response.text();
    const conversationId = response.headers.get("x-conversation-id") ?? "";
    return waitFor(async () => {
      const all = await db().select().from(messages).where(eq(messages.conversationId, conversationId));
      const newest = all
        .filter((m) => m.role === "assistant")
        .sort((a, b) => +a.createdAt - +b.createdAt)
        .at(-1);
      if (newest?.status !== "complete") return undefined;
      const [record] = await db().select().from(promptDebug).where(eq(promptDebug.messageId, newest.id));
      return record?.latencyMs != null ? { conversationId, answer: newest, record } : undefined;
    }, "the settled answer");
  }

  describe("versions", () => {
    /** What a model call received, minus the system message: [role, text] per message. */
    const turnsOf = (modelInput: unknown) =>
      ((modelInput as { params: { prompt: { role: string; content: unknown }[] } }[])[0]?.params.prompt ?? [])
        .filter((m) => m.role !== "system")
        .map((m) => [
          m.role,
          Array.isArray(m.content) ? m.content.map((p: { text?: string }) => p.text ?? "").join("") : m.content,
        ]);

    async function transcript(user: Awaited<ReturnType<typeof userWithMemories>>, conversationId: string) {
      const res = await user.client.request("GET", `/api/conversations/${conversationId}/messages`);
      expect(res.status).toBe(200);
      return (
        res.json as { messages: { id: string; content: string; versions: { ids: string[]; index: number } | null }[] }
      ).messages;
    }

    async function debugInput(user: Awaited<ReturnType<typeof userWithMemories>>, answerId: string) {
      const res = await user.client.request("GET", `/api/messages/${answerId}/debug`);
      expect(res.status).toBe(200);
      return turnsOf((res.json as { debug: { modelInput: unknown } }).debug.modelInput);
    }

    it("editing an earlier message forks there; regenerating adds a version; the model receives the current branch only", async () => {
      let calls = 0;
      const model = new MockLanguageModelV4({ doStream: async () => textStream([`Answer ${++calls}.`]) });
      setAiRegistry(registryWith(model));
      const user = await userWithMemories("versions", []);
      const intruder = await userWithMemories("versions-intruder", []);
      const q1 = await settled(await post(user, { message: { text: "I live in Lisbon" } }));
      const conversationId = q1.conversationId;
      const q2 = await settled(await post(user, { conversationId, message: { text: "I have a cat" } }));
      const q3 = await settled(await post(user, { conversationId, message: { text: "What pet do I have?" } }));
      const [first, second] = await transcript(user, conversationId);
      const cat = (await transcript(user, conversationId))[2];
      if (!first || !second || !cat) throw new Error("three exchanges expected");

      // Editing the second question (not the latest): a new version under the same parent.
      const edited = await settled(
        await post(user, { conversationId, editOf: cat.id, message: { text: "I have a dog" } }),
      );
      expect(edited.answer.content).toBe("Answer 4.");
      const forked = await transcript(user, conversationId);
      expect(forked.map((m) => m.content)).toEqual(["I live in Lisbon", "Answer 1.", "I have a dog", "Answer 4."]);
      expect(forked[2]?.versions).toEqual({ ids: [cat.id, forked[2]?.id], index: 1 });
      expect(forked[1]?.versions).toBeNull();
      // At the model boundary (the capture the debug view shows, and the call itself): the branch above the edit only.
      const branchAboveEdit = [
        ["user", "I live in Lisbon"],
        ["assistant", "Answer 1."],
        ["user", "I have a dog"],
      ];
      expect(await debugInput(user, edited.answer.id)).toEqual(branchAboveEdit);
      expect(turnsOf([{ params: toCapturedParams(model.doStreamCalls[3] as never) }])).toEqual(branchAboveEdit);
      // The abandoned versions keep their answers' debug records.
      expect(await debugInput(user, q3.answer.id)).toEqual([
        ["user", "I live in Lisbon"],
        ["assistant", "Answer 1."],
        ["user", "I have a cat"],
        ["assistant", "Answer 2."],
        ["user", "What pet do I have?"],
      ]);

      // The next message continues the current branch: the old version is not in its history.
      const next = await settled(await post(user, { conversationId, message: { text: "Walks?" } }));
      expect(await debugInput(user, next.answer.id)).toEqual([
        ...branchAboveEdit,
        ["assistant", "Answer 4."],
        ["user", "Walks?"],
      ]);

      // Regenerating the first answer: a version of it, asked from the first question alone.
      const regenerated = await settled(await post(user, { conversationId, retryOf: second.id }));
      expect(await debugInput(user, regenerated.answer.id)).toEqual([["user", "I live in Lisbon"]]);
      const afterRegenerate = await transcript(user, conversationId);
      expect(afterRegenerate.map((m) => m.content)).toEqual(["I live in Lisbon", "Answer 6."]);
      expect(afterRegenerate[1]?.versions).toEqual({ ids: [second.id, regenerated.answer.id], index: 1 });

      // Stepping back to the first answer shows its newest continuation; to the cat, that branch.
      const step = (messageId: string, who = user) =>
        who.client.request("PATCH", `/api/conversations/${conversationId}`, { json: { currentMessageId: messageId } });
      expect((await step(second.id)).status).toBe(200);
      expect((await transcript(user, conversationId)).map((m) => m.content)).toEqual([
        "I live in Lisbon",
        "Answer 1.",
        "I have a dog",
        "Answer 4.",
        "Walks?",
        "Answer 5.",
      ]);
      expect((await step(cat.id)).status).toBe(200);
      const catBranch = await transcript(user, conversationId);
      expect(catBranch.map((m) => m.content)).toEqual([
        "I live in Lisbon",
        "Answer 1.",
        "I have a cat",
        "Answer 2.",
        "What pet do I have?",
        "Answer 3.",
      ]);
      expect(catBranch[2]?.versions?.index).toBe(0);

      // Another user's request, or a message of another conversation: 404, the branch shown unchanged.
      const other = await settled(await post(user, { message: { text: "Elsewhere" } }));
      const foreignStep = await step(cat.id, intruder);
      expect(foreignStep.status).toBe(404);
      const wrongConversation = await step(other.answer.id);
      expect(wrongConversation.status).toBe(404);
      expect(wrongConversation.json).toMatchObject({ error: { code: "not_found:message" } });
      const foreignEdit = await post(intruder, { conversationId, editOf: cat.id, message: { text: "hijack" } });
      expect(foreignEdit.status).toBe(404);
      expect((await transcript(user, conversationId)).map((m) => m.id)).toEqual(catBranch.map((m) => m.id));

      // Continuing after stepping: the new message follows the branch shown.
      const continued = await settled(await post(user, { conversationId, message: { text: "Its name?" } }));
      expect((await debugInput(user, continued.answer.id)).map(([, text]) => text)).toEqual([
        ...catBranch.map((m) => m.content),
        "Its name?",
      ]);
      expect(calls).toBe(8);
      void q2;
    });

    it("a message sent from a tab showing another version continues that version's branch; a parent not of the conversation is 404", async () => {
      let calls = 0;
      const model = new MockLanguageModelV4({ doStream: async () => textStream([`Answer ${++calls}.`]) });
      setAiRegistry(registryWith(model));
      const user = await userWithMemories("parent-shown", []);
      const intruder = await userWithMemories("parent-shown-intruder", []);
      const first = await settled(await post(user, { message: { text: "I live in Lisbon" } }));
      const { conversationId } = first;
      // Another tab regenerates the answer: the conversation's current message is the new version.
      await settled(await post(user, { conversationId, retryOf: first.answer.id }));

      // This tab still shows the first answer, and continues it.
      const continued = await settled(
        await post(user, { conversationId, parentMessageId: first.answer.id, message: { text: "Walks?" } }),
      );
      expect(await debugInput(user, continued.answer.id)).toEqual([
        ["user", "I live in Lisbon"],
        ["assistant", "Answer 1."],
        ["user", "Walks?"],
      ]);
      expect((await transcript(user, conversationId)).map((m) => m.content)).toEqual([
        "I live in Lisbon",
        "Answer 1.",
        "Walks?",
        "Answer 3.",
      ]);

      // A parent of another conversation, a question, another user's request: 404, nothing written.
      const other = await settled(await post(user, { message: { text: "Elsewhere" } }));
      const [question] = await transcript(user, conversationId);
      const before = await db().select().from(messages).where(eq(messages.userId, user.id));
      for (const [who, parentMessageId, code] of [
        [user, other.answer.id, "not_found:message"],
        [user, question?.id, "not_found:message"],
        [intruder, continued.answer.id, "not_found:conversation"],
      ] as const) {
        const refused = await post(who, { conversationId, parentMessageId, message: { text: "Hijack" } });
        expect(refused.status).toBe(404);
        expect(await refused.json()).toMatchObject({ error: { code } });
      }
      const withRetry = await post(user, {
        conversationId,
        parentMessageId: first.answer.id,
        retryOf: continued.answer.id,
      });
      expect(withRetry.status).toBe(400);
      expect(await db().select().from(messages).where(eq(messages.userId, user.id))).toHaveLength(before.length);
      expect(calls).toBe(4);
    });

    it("every version keeps its own extraction, which reads its own branch; a memory from a version stepped away from stays", async () => {
      setAiRegistry(createAiRegistry({}));
      const user = await userWithMemories("versions-extraction", []);
      const idle = async () => {
        await afterResponseIdle();
        await getInProcessRunner().idle();
      };
      const first = await settled(await post(user, { message: { text: "I live in Lisbon" } }));
      const { conversationId } = first;
      const cat = await settled(await post(user, { conversationId, message: { text: "My cat's name is Tom" } }));
      await idle();
      const catQuestion = (await transcript(user, conversationId))[2];
      if (!catQuestion) throw new Error("no second question");
      const dog = await settled(
        await post(user, { conversationId, editOf: catQuestion.id, message: { text: "My dog's name is Rex" } }),
      );
      await idle();
      const dogQuestion = (await transcript(user, conversationId))[2];

      const extractions = await db()
        .select()
        .from(memoryExtractions)
        .where(eq(memoryExtractions.conversationId, conversationId));
      expect(extractions.map((e) => e.assistantMessageId).sort()).toEqual(
        [first.answer.id, cat.answer.id, dog.answer.id].sort(),
      );
      const saved = await db().select().from(memories).where(eq(memories.userId, user.id));
      const catMemory = saved.find((m) => /cat/i.test(m.content));
      const dogMemory = saved.find((m) => /dog/i.test(m.content));
      // The abandoned version's memory is kept, its provenance that version's messages.
      expect(catMemory).toMatchObject({
        status: "active",
        sourceUserMessageId: catQuestion.id,
        sourceAssistantMessageId: cat.answer.id,
      });
      expect(dogMemory).toMatchObject({
        status: "active",
        sourceUserMessageId: dogQuestion?.id,
        sourceAssistantMessageId: dog.answer.id,
      });
      // The new version's extraction read its branch: the first exchange, never the cat's version.
      const [lisbon] = await transcript(user, conversationId);
      expect(dogMemory?.examinedMessageIds).toContain(lisbon?.id);
      expect(dogMemory?.examinedMessageIds).not.toContain(catQuestion.id);
      expect(dogMemory?.examinedMessageIds).not.toContain(cat.answer.id);
    });

    it("deleting a version deletes it and everything below it, as deleting a chat does; its memories stay", async () => {
      let calls = 0;
      const model = new MockLanguageModelV4({ doStream: async () => textStream([`Answer ${++calls}.`]) });
      setAiRegistry(registryWith(model));
      const user = await userWithMemories("delete-version", []);
      const intruder = await userWithMemories("delete-version-intruder", []);
      const first = await settled(await post(user, { message: { text: "I'm vegetarian" } }));
      const { conversationId } = first;
      const [question] = await transcript(user, conversationId);
      if (!question) throw new Error("no question");
      const edited = await settled(
        await post(user, { conversationId, editOf: question.id, message: { text: "I'm vegan" } }),
      );
      // A memory saved from the first version, and a note on its answer.
      const [memory] = await db()
        .insert(memories)
        .values({
          userId: user.id,
          content: "Is vegetarian",
          provenance: "user_stated",
          sourceConversationId: conversationId,
          sourceUserMessageId: question.id,
          sourceAssistantMessageId: first.answer.id,
        })
        .returning();
      expect(
        (await user.client.request("POST", `/api/messages/${first.answer.id}/notes`, { json: { content: "old" } }))
          .status,
      ).toBe(201);

      expect((await intruder.client.request("DELETE", `/api/messages/${question.id}`)).status).toBe(404);
      expect(await db().select().from(messages).where(eq(messages.conversationId, conversationId))).toHaveLength(4);

      expect((await user.client.request("DELETE", `/api/messages/${question.id}`)).status).toBe(204);
      const left = await db().select().from(messages).where(eq(messages.conversationId, conversationId));
      expect(left.map((m) => m.content).sort()).toEqual(["Answer 2.", "I'm vegan"]);
      expect(await db().select().from(promptDebug).where(eq(promptDebug.messageId, first.answer.id))).toEqual([]);
      expect((await user.client.request("GET", `/api/messages/${first.answer.id}/debug`)).status).toBe(404);
      const [kept] = await db()
        .select()
        .from(memories)
        .where(eq(memories.id, memory?.id ?? ""));
      expect(kept).toMatchObject({
        status: "active",
        sourceConversationId: conversationId,
        sourceUserMessageId: null,
        sourceAssistantMessageId: null,
      });
      // The version left is the chat's, with nothing to step to.
      const shown = await transcript(user, conversationId);
      expect(shown.map((m) => [m.id, m.versions])).toEqual([
        [left.find((m) => m.role === "user")?.id, null],
        [edited.answer.id, null],
      ]);
      expect((await user.client.request("DELETE", `/api/messages/${question.id}`)).status).toBe(404);

      // A question's only answer is refused: the next message would follow a question.
      const onlyAnswer = await user.client.request("DELETE", `/api/messages/${edited.answer.id}`);
      expect(onlyAnswer.status).toBe(409);
      expect(onlyAnswer.json).toMatchObject({ error: { code: "conflict:only_answer" } });
      expect((await transcript(user, conversationId)).map((m) => m.content)).toEqual(["I'm vegan", "Answer 2."]);
      // Deleting the question deletes the exchange: the chat then shows the branch above it (here: nothing).
      expect((await user.client.request("DELETE", `/api/messages/${shown[0]?.id}`)).status).toBe(204);
      expect(await transcript(user, conversationId)).toEqual([]);
      const [conversation] = await db().select().from(conversations).where(eq(conversations.id, conversationId));
      expect(conversation?.currentMessageId).toBeNull();
    });
  });

  it("titles the conversation after the first exchange, keeping its punctuation", async () => {
    setAiRegistry(createAiRegistry({}));
    const user = await userWithMemories("title", []);
    const res = await post(user, { message: { text: "I'm vegetarian" } });
    const { conversationId } = await settled(res);
    await afterResponseIdle();
    const listed = await user.client.request("GET", "/api/conversations");
    const { conversations: list } = listed.json as { conversations: { id: string; title: string }[] };
    expect(list.find((c) => c.id === conversationId)?.title).toBe("I'm vegetarian");
  });

  it("a client abort keeps the partial answer with status aborted", async () => {
    const words = Array.from({ length: 200 }, (_, i) => `w${i} `);
    const model = new MockLanguageModelV4({ doStream: async () => textStream(words, { delayMs: 20 }) });
    setAiRegistry(registryWith(model));
    const user = await userWithMemories("abort", []);
    const controller = new AbortController();
    const res = await post(user, { message: { text: "Write a long story" } }, controller.signal);
    const conversationId = res.headers.get("x-conversation-id") ?? "";
    const reader = res.body?.getReader();
    const first = await reader?.read();
    expect(first?.done).toBe(false);
    await new Promise((r) => setTimeout(r, 200));
    controller.abort();
    const { assistant } = await waitFor(async () => {
      const r = await debugOf(conversationId).catch(() => undefined);
      return r?.record && r.record.latencyMs !== null ? r : undefined; // settled: the record is completed
    }, "the aborted record");
    expect(assistant.status).toBe("aborted");
    expect(assistant.content.length).toBeGreaterThan(0);
    expect(assistant.content.length).toBeLessThan(words.join("").length);
  });

  it("deleting an answer, or its question, while it streams is a 409; the answer ends complete", async () => {
    const words = Array.from({ length: 100 }, (_, i) => `w${i} `);
    const model = new MockLanguageModelV4({ doStream: async () => textStream(words, { delayMs: 20 }) });
    setAiRegistry(registryWith(model));
    const user = await userWithMemories("delete-streaming", []);
    const res = await post(user, { message: { text: "Write a story" } });
    const conversationId = res.headers.get("x-conversation-id") ?? "";
    const body = res.text();
    const rows = await db().select().from(messages).where(eq(messages.conversationId, conversationId));
    for (const row of rows) {
      const removal = await user.client.request("DELETE", `/api/messages/${row.id}`);
      expect(removal.status).toBe(409);
      expect(removal.json).toMatchObject({ error: { code: "conflict:streaming" } });
    }
    expect(await body).toContain('"type":"finish"');
    const { assistant } = await waitFor(async () => {
      const r = await debugOf(conversationId).catch(() => undefined);
      return r?.record && r.record.latencyMs !== null ? r : undefined;
    }, "the settled record");
    expect(assistant).toMatchObject({ status: "complete", content: words.join("") });
  });

  it("a foreign conversationId is 404 and writes nothing", async () => {
    setAiRegistry(registryWith(new MockLanguageModelV4({ doStream: async () => textStream(["x"]) })));
    const owner = await userWithMemories("owner", []);
    const other = await userWithMemories("intruder", []);
    const [conversation] = await db().insert(conversations).values({ userId: owner.id, title: "Private" }).returning();
    const count = async () => (await db().select().from(messages)).length;
    const before = await count();
    const res = await post(other, { conversationId: conversation?.id, message: { text: "let me in" } });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("not_found:conversation");
    expect(await count()).toBe(before);
  });

  it("an unknown model is a 400 naming body.model, and creates no conversation", async () => {
    setAiRegistry(registryWith(new MockLanguageModelV4({ doStream: async () => textStream(["x"]) })));
    const user = await userWithMemories("bad-model", []);
    const res = await post(user, { message: { text: "hi" }, model: "gpt-nonexistent" });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { fields: Record<string, string> } };
    expect(Object.keys(body.error.fields)).toEqual(["body.model"]);
    const rows = await db().select().from(conversations).where(eq(conversations.userId, user.id));
    expect(rows).toEqual([]);
  });

  it("the offline provider answers a chat turn end to end with no API key, using the memory", async () => {
    setAiRegistry(createAiRegistry({}));
    const user = await userWithMemories("offline", ["Prefers green tea"]);
    const res = await post(user, { message: { text: "What tea do I like?" } });
    expect(res.status).toBe(200);
    const sse = await res.text();
    expect(sse).toContain('"type":"text-delta"');
    const { assistant, record } = await waitFor(async () => {
      const r = await debugOf(res.headers.get("x-conversation-id") ?? "").catch(() => undefined);
      return r?.record && r.record.latencyMs !== null ? r : undefined; // settled: the record is completed
    }, "the offline record");
    expect(assistant.status).toBe("complete");
    expect(assistant.content).toMatch(/green tea/);
    expect(record).toMatchObject({ provider: "offline", modelId: "lifeline-offline-1", retrievalStatus: "ok" });
  });

  it("the offline model mentions a memory only when retrieval matched it to the message", async () => {
    setAiRegistry(createAiRegistry({}));
    const user = await userWithMemories("offline-fit", []);
    const answerTo = async (text: string, conversationId?: string) => {
      const res = await post(user, { message: { text }, ...(conversationId ? { conversationId } : {}) });
      expect(res.status).toBe(200);
      await res.text();
      const id = res.headers.get("x-conversation-id") ?? "";
      await afterResponseIdle();
      await getInProcessRunner().idle(); // extraction has stored what the message said
      const all = await db().select().from(messages).where(eq(messages.conversationId, id));
      const latest = all.filter((m) => m.role === "assistant").sort((a, b) => +b.createdAt - +a.createdAt)[0];
      return { id, content: latest?.content ?? "" };
    };
    const first = await answerTo("I'm vegetarian and allergic to peanuts");
    const stored = await db().select().from(memories).where(eq(memories.userId, user.id));
    expect(stored.map((m) => m.content).sort()).toEqual(["Is allergic to peanuts", "Is vegetarian"]);
    // Both memories are in this conversation's prompt (its branch), but neither fits the question.
    const spiders = await answerTo("Are spiders insects?", first.id);
    expect(spiders.content).not.toMatch(/vegetarian|peanut/);
    expect(spiders.content).toMatch(/^Nothing you've told me helps with that/);
    const avoid = await answerTo("What should I avoid eating?", first.id);
    expect(avoid.content).toContain("you are allergic to peanuts");
    expect(avoid.content).not.toMatch(/Nothing you've told me/);
  });

  describe("memory tools", () => {
    async function settled(res: Response) {
      const conversationId = res.headers.get("x-conversation-id") ?? "";
      await res.text();
      return waitFor(async () => {
        const r = await debugOf(conversationId).catch(() => undefined);
        return r?.record && r.record.latencyMs !== null ? r : undefined;
      }, "the settled record");
    }

    it("the offline model lists the user's memories through list_memories, recorded, counted and owner-scoped", async () => {
      setAiRegistry(createAiRegistry({}));
      const user = await userWithMemories("tools-list", ["Prefers green tea", "Works as a nurse"]);
      await userWithMemories("tools-other", ["Has a secret cat named Zed"]);
      const res = await post(user, { message: { text: "What do you remember about me?" } });
      expect(res.status).toBe(200);
      const { assistant, record } = await settled(res);

      // Two model calls, both captured in order: the tool call, then the answer from its result.
      const calls = record?.modelInput as { params: { prompt: { role: string }[]; tools?: { name: string }[] } }[];
      expect(calls).toHaveLength(2);
      expect(calls[0]?.params.tools?.map((t) => t.name).sort()).toEqual(["list_memories", "search_memories"]);
      expect(calls[1]?.params.prompt.map((m) => m.role).slice(-2)).toEqual(["assistant", "tool"]);

      const trace = record?.trace as ContextTrace;
      expect(trace.toolCalls).toHaveLength(1);
      const call = trace.toolCalls?.[0];
      expect(call).toMatchObject({ tool: "list_memories", step: 1, status: "ok", returned: 2, matching: 2 });
      expect(call?.rule).toMatch(/^all active memories, the most important first/);
      expect(call?.memories.map((m) => [m.content, m.fate])).toEqual(
        expect.arrayContaining([
          ["Prefers green tea", "returned"],
          ["Works as a nurse", "returned"],
        ]),
      );
      expect(assistant.content).toMatch(/^Here's what I remember about you:/);
      expect(assistant.content).toContain("You prefer green tea.");
      expect(assistant.content).not.toContain("Zed");
      // The stored parts show the tool step (ids only) before the text.
      expect((assistant.parts as { type: string }[]).map((p) => p.type)).toEqual(["tool-list_memories", "text"]);

      // The metadata line counts the memories the tool returned, with their "tool" branch.
      const transcript = (await (
        await fetch(`${context.server.url}/api/conversations/${assistant.conversationId}/messages`, {
          headers: { cookie: user.client.cookieHeader() },
        })
      ).json()) as {
        messages: {
          role: string;
          debug: { memoriesSent: { branches: string[]; reach: string }[]; memoriesUsed: unknown[] } | null;
        }[];
      };
      const debug = transcript.messages.find((m) => m.role === "assistant")?.debug;
      const sent = debug?.memoriesSent ?? [];
      expect(sent).toHaveLength(2);
      expect(sent.every((m) => m.branches.includes("tool") && m.reach === "looked_up")).toBe(true);
      // The former name stays readable for scripts: the same list.
      expect(debug?.memoriesUsed).toEqual(sent);

      // Each returned memory counted once for this answer (the prompt may have carried it too).
      const rows = await db().select(withUsage).from(memories).where(eq(memories.userId, user.id));
      expect(rows.map((r) => r.accessCount)).toEqual([1, 1]);

      // Deleting a listed memory redacts its text from the record once the undo window closes: the tool
      // rows and the tool result the model received.
      const nurse = rows.find((r) => r.content === "Works as a nurse");
      const deleted = await fetch(`${context.server.url}/api/memories/${nurse?.id}`, {
        method: "DELETE",
        headers: { cookie: user.client.cookieHeader() },
      });
      expect(deleted.status).toBe(200);
      await redactDueDeletions(db(), { now: new Date(Date.now() + deletionConfig.undoWindowMs + 1_000), batch: 50 });
      const [after] = await db().select().from(promptDebug).where(eq(promptDebug.messageId, assistant.id));
      expect(JSON.stringify(after?.trace)).not.toContain("nurse");
      expect(JSON.stringify(after?.modelInput)).not.toContain("nurse");
      expect(JSON.stringify(after?.modelInput)).toContain("green tea");
      const redactedRow = (after?.trace as ContextTrace | undefined)?.toolCalls?.[0]?.memories.find(
        (m) => m.memoryId === nurse?.id,
      );
      expect(redactedRow).toMatchObject({ title: null, content: "[deleted memory]", redacted: true });
      expect((after?.trace as ContextTrace | undefined)?.redactedMemoryIds).toEqual([nurse?.id]);
    });

    it("a model's search_memories call runs the retrieval statement with its query; the trace has scores and fates", async () => {
      let step = 0;
      const model = new MockLanguageModelV4({
        doStream: async () => {
          step++;
          if (step > 1) return textStream(["Noted."]);
          const chunks: LanguageModelV4StreamPart[] = [
            { type: "stream-start", warnings: [] },
            { type: "tool-call", toolCallId: "c1", toolName: "search_memories", input: '{"query":"green tea"}' },
            { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage },
          ];
          return { stream: simulateReadableStream({ chunks }) };
        },
      });
      setAiRegistry(registryWith(model));
      const user = await userWithMemories("tools-search", ["Prefers green tea", "Works as a nurse"]);
      const { record } = await settled(await post(user, { message: { text: "Hi" } }));
      const call = (record?.trace as ContextTrace | undefined)?.toolCalls?.[0];
      expect(call).toMatchObject({ tool: "search_memories", input: { query: "green tea" }, status: "ok" });
      expect(call?.rule).toMatch(/^the hybrid retrieval strategy/);
      const tea = call?.memories.find((m) => m.content === "Prefers green tea");
      expect(tea).toMatchObject({ fate: "returned", rank: 1 });
      expect(tea?.similarity).toBeGreaterThan(0.5);
      expect(record?.modelInput).toHaveLength(2);
    });

    it("a model that keeps calling tools gets none on its last allowed call, so the answer ends in text", async () => {
      const model = new MockLanguageModelV4({
        doStream: async ({ tools }) => {
          if (!tools?.length) return textStream(["Done."]);
          const chunks: LanguageModelV4StreamPart[] = [
            { type: "stream-start", warnings: [] },
            { type: "tool-call", toolCallId: crypto.randomUUID(), toolName: "list_memories", input: "{}" },
            { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage },
          ];
          return { stream: simulateReadableStream({ chunks }) };
        },
      });
      setAiRegistry(registryWith(model));
      const user = await userWithMemories("tools-loop", ["Prefers green tea"]);
      const { assistant, record } = await settled(await post(user, { message: { text: "Hi" } }));
      const calls = record?.modelInput as { params: { tools?: unknown[] } }[];
      expect(calls).toHaveLength(memoryToolsConfig.maxSteps);
      expect(calls.at(-1)?.params.tools ?? []).toEqual([]);
      expect((record?.trace as ContextTrace | undefined)?.toolCalls).toHaveLength(memoryToolsConfig.maxSteps - 1);
      expect(assistant.content).toBe("Done.");
      // The same memory returned three times counts once.
      const [row] = await db().select(withUsage).from(memories).where(eq(memories.userId, user.id));
      expect(row?.accessCount).toBe(1);
    });

    it("with memory off no memory tools are offered", async () => {
      setAiRegistry(createAiRegistry({}));
      const user = await userWithMemories("tools-off", ["Prefers green tea"]);
      // A new conversation takes the account's default.
      await db().update(users).set({ memoryEnabledDefault: false }).where(eq(users.id, user.id));
      const { assistant, record } = await settled(
        await post(user, { message: { text: "What do you remember about me?" } }),
      );
      const calls = record?.modelInput as { params: { tools?: unknown[] } }[];
      expect(calls).toHaveLength(1);
      expect(calls[0]?.params.tools).toBeUndefined();
      expect((record?.trace as ContextTrace | undefined)?.toolCalls).toBeUndefined();
      expect(assistant.content).not.toMatch(/Thanks for telling me/);
    });
  });
});
