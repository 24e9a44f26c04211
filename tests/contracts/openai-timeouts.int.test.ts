/**
 * Every model call has a time bound (core/config.ts modelCallConfig). Here the bounds are
 * shortened so that a model that goes silent can be waited out: an answer whose model stops sending
 * mid-answer, or never starts, ends `error` once the bound passes — its text kept, saying the model
 * took too long — and the request ends instead of hanging with the model.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { messages } from "@/db/schema";
import { createAiRegistry, setAiRegistry } from "@/lib/ai/registry";
import { afterResponseIdle } from "@/lib/jobs/after-response";
import { getInProcessRunner } from "@/lib/runtime";
import { registerAndSignIn } from "@/tests/http-client";
import { useTestServer } from "@/tests/test-server";
import { type Reply, type StrictOpenAi, startStrictOpenAi } from "./openai-fake";

vi.mock("@/core/config", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@/core/config")>();
  return {
    ...actual,
    modelCallConfig: { ...actual.modelCallConfig, answerTimeoutMs: 5_000, answerChunkTimeoutMs: 1_000 },
  };
});

process.env.AUTH_SECRET ??= "openai-timeouts-secret-0123456789abcdef";
process.env.LIFELINE_CHAT_RATE_LIMIT = "off";

const script: { answer?: Reply } = {};

describe("a model that goes silent is waited out, not waited on", () => {
  const context = useTestServer("pglite");
  let fake: StrictOpenAi;
  beforeAll(async () => {
    fake = await startStrictOpenAi((body) =>
      body.response_format === undefined && body.stream === true ? script.answer : undefined,
    );
    setAiRegistry(createAiRegistry({ OPENAI_BASE_URL: fake.baseURL, LIFELINE_CHAT_MODELS: "gpt-4o-mini" }));
  });
  afterAll(async () => {
    await afterResponseIdle();
    await getInProcessRunner().idle();
    setAiRegistry(undefined);
    await fake?.close();
  });

  async function answerOf(label: string) {
    const user = await registerAndSignIn(context.server.url, label);
    const res = await fetch(`${context.server.url}/api/chat`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: user.client.cookieHeader() },
      body: JSON.stringify({ message: { text: "Tell me about tides." } }),
    });
    expect(res.status).toBe(200);
    const sse = await res.text();
    const [answer] = await context.database.db
      .select()
      .from(messages)
      .where(and(eq(messages.userId, user.id), eq(messages.role, "assistant")));
    return { sse, answer };
  }

  it("silent mid-answer: `error` with the text so far, saying the model took too long", async () => {
    script.answer = { kind: "pieces", pieces: [{ text: "Tides follow" }, { text: " the moon." }], holdAfter: 1 };
    const { sse, answer } = await answerOf("silent-mid");
    expect(answer).toMatchObject({ status: "error", content: "Tides follow" });
    expect(answer?.error).toContain("took too long");
    // The stream ends (the SDK's abort part) instead of hanging with the model; the chat then reads
    // the stored answer and shows its error with Retry.
    expect(sse).toContain('"type":"abort"');
  });

  it("silent from the start: `error` once the whole-answer bound passes (the silence bound starts at the first chunk)", async () => {
    script.answer = { kind: "hold" };
    const { answer } = await answerOf("silent-start");
    expect(answer).toMatchObject({ status: "error", content: "" });
    expect(answer?.error).toContain("took too long");
  });
});
