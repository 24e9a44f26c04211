/**
 * OpenTelemetry spans of a chat turn and of its extraction (core/telemetry.ts): with a tracer
 * provider registered — an in-memory exporter here, @vercel/otel in the app — one turn emits
 * chat.write, chat.retrieval, chat.model and chat.debug_write, and the extraction job a span per step it runs.
 */
import { trace } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { logger } from "@/core/logger";
import { setDatabase } from "@/db/client";
import { createUser } from "@/db/queries/users";
import { createAiRegistry, setAiRegistry } from "@/lib/ai/registry";
import { afterResponseIdle } from "@/lib/jobs/after-response";
import { getInProcessRunner, processDispatcher } from "@/lib/runtime";
import { chatBody } from "@/lib/validation/chat";
import { useTestDatabase } from "@/tests/test-database";
import { runChatTurn } from "./turn";

describe("tracing a chat turn (PGlite, offline model, in-process extraction)", () => {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const database = useTestDatabase("pglite");

  beforeAll(async () => {
    trace.setGlobalTracerProvider(provider);
    setDatabase(database);
    setAiRegistry(createAiRegistry({ LIFELINE_OFFLINE_DELAY_MS: "0" }));
  });
  afterAll(async () => {
    trace.disable();
    await provider.shutdown();
    setAiRegistry(undefined);
    setDatabase(undefined);
  });

  /** A new user's first turn, read to its end, with its extraction done; the spans it (alone) emitted. */
  async function firstTurn(name: string, text: string) {
    const user = await createUser(database.db, { email: `${name}@example.com`, name, passwordHash: null });
    exporter.reset();
    const response = await runChatTurn(database.db, createAiRegistry({ LIFELINE_OFFLINE_DELAY_MS: "0" }), {
      userId: user.id,
      body: chatBody.parse({ message: { text } }),
      signal: new AbortController().signal,
      log: logger,
      dispatcher: processDispatcher("in-process"),
    });
    await response.text();
    await afterResponseIdle();
    await getInProcessRunner().idle();
    return exporter.getFinishedSpans();
  }

  it("emits the stage spans of the turn and of its extraction's steps", async () => {
    const spans = await firstTurn("spans", "I live in Lisbon and I work as a marine biologist.");
    const names = spans.map((span) => span.name);
    expect(names).toEqual(expect.arrayContaining(["chat.write", "chat.retrieval", "chat.model", "chat.debug_write"]));
    // A first message creates its conversation, then writes the question and the answer's row.
    expect(spans.filter((span) => span.name === "chat.write").map((span) => span.attributes["lifeline.write"])).toEqual(
      ["conversation", "messages"],
    );
    // The debug record is written when the model is called and again when the answer settles.
    expect(
      spans.filter((span) => span.name === "chat.debug_write").map((span) => span.attributes["lifeline.debug.phase"]),
    ).toEqual(["model-call", "settled"]);
    const model = spans.find((span) => span.name === "chat.model");
    expect(model?.attributes).toMatchObject({ "lifeline.answer.status": "complete" });
    expect(model?.attributes["gen_ai.usage.output_tokens"]).toBeGreaterThan(0);
    expect(spans.find((span) => span.name === "chat.retrieval")?.attributes["lifeline.retrieval.status"]).toBeTypeOf(
      "string",
    );
    expect(names.filter((name) => name.startsWith("extraction."))).toEqual(
      expect.arrayContaining(["extraction.load-pair", "extraction.extract", "extraction.store"]),
    );
    const step = spans.find((span) => span.name === "extraction.load-pair");
    expect(step?.attributes).toMatchObject({ "lifeline.job.runner": "in-process" });
  });

  it("retrieves while the turn's messages are written, and counts access only once they are", async () => {
    const spans = await firstTurn("overlap", "What do you know about my garden?");
    const ms = ([seconds, nanos]: readonly [number, number]) => seconds * 1e3 + nanos / 1e6;
    const one = (name: string, write?: string) => {
      const found = spans.filter(
        (span) => span.name === name && (!write || span.attributes["lifeline.write"] === write),
      );
      expect(found, name).toHaveLength(1);
      return found[0] as (typeof found)[number];
    };
    const messages = one("chat.write", "messages");
    const retrieval = one("chat.retrieval");
    const access = one("retrieval.access_write");
    expect(ms(retrieval.startTime)).toBeLessThan(ms(messages.endTime));
    expect(ms(access.startTime)).toBeGreaterThanOrEqual(ms(messages.endTime));
  });
});
