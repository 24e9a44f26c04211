import { describe, expect, it, vi } from "vitest";
import {
  EMBEDDING_DIMENSIONS,
  retrievalConfig,
  retrievalStrategies,
  thresholdFor,
  vectorWeightFor,
} from "@/core/config";
import type { Db } from "@/db/client";
import { type AssembleInput, assembleContext } from "./assemble";
import { DEFAULT_ASSEMBLY_CONFIG } from "./assembly-config";
import { MODE_INSTRUCTIONS } from "./modes";

/** A Db on which any use throws, as an unreachable database does. */
const brokenDb = new Proxy(
  {},
  {
    get(_, property) {
      if (property === "then") return undefined; // not a thenable
      throw new Error("connection refused");
    },
  },
) as Db;

const embedding = Array.from({ length: EMBEDDING_DIMENSIONS }, (_, i) => (i === 0 ? 1 : 0));

const input = (overrides: Partial<AssembleInput> = {}): AssembleInput => ({
  userId: "00000000-0000-4000-8000-000000000001",
  userName: "Ada",
  message: "What tea do I like?",
  history: [
    { id: "h1", role: "user", content: "Hello" },
    { id: "h2", role: "assistant", content: "Hi Ada!" },
  ],
  mode: "conversational",
  memoryEnabled: true,
  embed: async () => embedding,
  embeddingModel: "test/fixture",
  now: new Date("2025-06-15T12:00:00.000Z"),
  ...overrides,
});

const expectChatGoesOn = (messages: Awaited<ReturnType<typeof assembleContext>>["messages"]) => {
  expect(messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
  expect(messages.at(-1)).toEqual({ role: "user", content: "What tea do I like?" });
};

describe("assembleContext without a working database", () => {
  it("memory disabled: status disabled, nothing embedded or queried", async () => {
    const embed = vi.fn(async () => embedding);
    const { messages, trace } = await assembleContext(brokenDb, input({ memoryEnabled: false, embed }));
    expect(embed).not.toHaveBeenCalled();
    expect(trace).toMatchObject({ status: "disabled", error: null, failedStage: null, semantic: null, candidates: [] });
    expect(trace.timings).toMatchObject({ embedMs: null, semanticSqlMs: null, conversationSqlMs: null });
    expect(messages[0]?.content).toContain("Memory is off for this conversation");
    expectChatGoesOn(messages);
  });

  it("database failure in the semantic query: status failed with the error, an empty memory section", async () => {
    const { messages, trace } = await assembleContext(brokenDb, input());
    expect(trace).toMatchObject({ status: "failed", error: "connection refused", failedStage: "semantic" });
    expect(trace.timings.embedMs).not.toBeNull();
    expect(trace.tokens.memory).toBe(0);
    expect(trace.memoryLines).toEqual([]);
    expect(messages[0]?.content).toBe(`${MODE_INSTRUCTIONS.conversational}\n\nYou are talking with Ada.`);
    expectChatGoesOn(messages);
  });

  it("database failure in the conversation branch: failed at that stage, though the embedding ran alongside", async () => {
    const embed = vi.fn(async () => embedding);
    const { trace } = await assembleContext(
      brokenDb,
      input({ conversationId: "00000000-0000-4000-8000-000000000002", embed }),
    );
    // The branches run concurrently; the first failed stage in pipeline order is the one reported.
    expect(trace).toMatchObject({ status: "failed", failedStage: "conversation", conversation: null });
    expect(embed).toHaveBeenCalledTimes(1);
  });

  it("embedder failure: status failed at the embed stage", async () => {
    const embed = async () => {
      throw new Error("embedding provider timed out");
    };
    const { messages, trace } = await assembleContext(brokenDb, input({ embed }));
    expect(trace).toMatchObject({ status: "failed", error: "embedding provider timed out", failedStage: "embed" });
    expect(messages[0]?.content).not.toMatch(/no saved memories/);
    expectChatGoesOn(messages);
  });

  it("an unusable embedding fails the semantic stage before any SQL", async () => {
    const { trace } = await assembleContext(brokenDb, input({ embed: async () => [0.1, 0.2] }));
    expect(trace).toMatchObject({ status: "failed", failedStage: "semantic" });
    expect(trace.error).toMatch(/has 2 dimensions/);
  });

  it("records the config, the history inclusion and the token counts; the trace is plain JSON", async () => {
    const { trace } = await assembleContext(brokenDb, input({ memoryEnabled: false }));
    // An embedder without a measured threshold gets the fallback: the default config, unchanged,
    // with the history budget it resolved (no model given: the offline model's and previews').
    expect(trace.config).toEqual({ ...DEFAULT_ASSEMBLY_CONFIG, prompt: { historyTokenBudget: 2000 } });
    const forModel = await assembleContext(brokenDb, input({ memoryEnabled: false, historyTokenBudget: 32_000 }));
    expect(forModel.trace.config.prompt.historyTokenBudget).toBe(32_000);
    const fixed = { ...DEFAULT_ASSEMBLY_CONFIG, prompt: { historyTokenBudget: 1_000_000 } };
    const full = await assembleContext(
      brokenDb,
      input({ memoryEnabled: false, historyTokenBudget: 32_000, config: fixed }),
    );
    expect(full.trace.config.prompt.historyTokenBudget).toBe(1_000_000);
    expect(trace.embeddingModel).toBe("test/fixture");
    expect(trace.history.map((h) => [h.id, h.included])).toEqual([
      ["h1", true],
      ["h2", true],
    ]);
    expect(trace.tokens.total).toBe(trace.tokens.system + trace.tokens.history + trace.tokens.userMessage);
    expect(trace.now).toBe("2025-06-15T12:00:00.000Z");
    expect(JSON.parse(JSON.stringify(trace))).toEqual(trace);
  });

  it("records the embedder and applies the threshold measured for it", async () => {
    const { trace } = await assembleContext(
      brokenDb,
      input({ memoryEnabled: false, embeddingModel: "offline/hash-ngram-v1" }),
    );
    expect(trace.embeddingModel).toBe("offline/hash-ngram-v1");
    expect(trace.config.retrieval.similarityThreshold).toBe(thresholdFor("offline/hash-ngram-v1"));
    expect(thresholdFor("offline/hash-ngram-v1")).not.toBe(retrievalConfig.similarityThreshold);
    expect(thresholdFor("openai/text-embedding-3-small")).toBe(retrievalConfig.similarityThreshold);
  });

  it("applies the fusion's vector weight measured for the embedder, the strategy's own for the others", async () => {
    const { trace } = await assembleContext(
      brokenDb,
      input({ memoryEnabled: false, embeddingModel: "offline/wordvec-glove-v2" }),
    );
    expect(trace.config.retrieval.fusion?.vectorWeight).toBe(vectorWeightFor("offline/wordvec-glove-v2"));
    expect(vectorWeightFor("offline/wordvec-glove-v2")).not.toBe(retrievalConfig.fusion.vectorWeight);
    expect(vectorWeightFor("openai/text-embedding-3-small")).toBe(retrievalConfig.fusion.vectorWeight);
    expect(vectorWeightFor("offline/wordvec-glove-v2", retrievalStrategies.nearest)).toBeNull();
    // The other fusion numbers stay the strategy's.
    expect({ ...trace.config.retrieval.fusion, vectorWeight: 0 }).toEqual({
      ...retrievalConfig.fusion,
      vectorWeight: 0,
    });
  });
});
