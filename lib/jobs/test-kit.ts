/**
 * Test fixtures of the extraction job: users, conversations and message pairs with their
 * extraction row, job deps built on `ai/test` mocks, and a scripted model that answers each
 * structured output by name (defaulting to the real offline model). Tests only.
 */
import type { LanguageModelV3CallOptions, LanguageModelV3GenerateResult } from "@ai-sdk/provider";
import { embedMany } from "ai";
import { MockEmbeddingModelV3, MockLanguageModelV3 } from "ai/test";
import type { Db } from "@/db/client";
import { createExtraction, type Extraction } from "@/db/queries/extractions";
import { conversations, messages, users } from "@/db/schema";
import { embedOffline } from "@/lib/ai/offline-embedder";
import { offlineLanguageModel } from "@/lib/ai/offline-model";
import type { ExtractionDeps } from "./extraction-job";

export const OFFLINE_EMBEDDER_ID = "offline/hash-ngram-v1";

export async function createUser(db: Db, name = "Ada"): Promise<string> {
  const [user] = await db
    .insert(users)
    .values({ name, email: `${name.toLowerCase()}-${crypto.randomUUID()}@example.com` })
    .returning({ id: users.id });
  if (!user) throw new Error("no user inserted");
  return user.id;
}

export async function createConversation(db: Db, userId: string, memoryEnabled = true): Promise<string> {
  const [row] = await db.insert(conversations).values({ userId, memoryEnabled }).returning({ id: conversations.id });
  if (!row) throw new Error("no conversation inserted");
  return row.id;
}

export interface Pair {
  userId: string;
  conversationId: string;
  userMessageId: string;
  assistantMessageId: string;
}

let clock = Date.parse("2025-06-01T09:00:00.000Z");

/** Saves a user message and its answer (strictly increasing created_at, so history order is defined). */
export async function createPair(
  db: Db,
  { userId, conversationId }: { userId: string; conversationId: string },
  userText: string,
  assistantText: string,
): Promise<Pair> {
  clock += 2000;
  const [userMessage, assistantMessage] = await db
    .insert(messages)
    .values([
      { userId, conversationId, role: "user", content: userText, createdAt: new Date(clock - 1000) },
      { userId, conversationId, role: "assistant", content: assistantText, createdAt: new Date(clock) },
    ])
    .returning({ id: messages.id });
  if (!userMessage || !assistantMessage) throw new Error("no messages inserted");
  return { userId, conversationId, userMessageId: userMessage.id, assistantMessageId: assistantMessage.id };
}

/** A pair and its queued extraction row, as enqueueExtraction leaves it before dispatch. */
export async function createQueuedPair(
  db: Db,
  owner: { userId: string; conversationId: string },
  userText: string,
  assistantText = "Noted!",
): Promise<Pair & { extraction: Extraction }> {
  const pair = await createPair(db, owner, userText, assistantText);
  const { extraction } = await createExtraction(db, { ...pair, status: "queued", runner: "in-process" });
  return { ...pair, extraction };
}

/** A script's answer: the text to return, or null for the offline model's answer (e.g. after a delay). */
type Respond = (options: LanguageModelV3CallOptions) => string | null | Promise<string | null>;

function generated(text: string): LanguageModelV3GenerateResult {
  return {
    content: [{ type: "text", text }],
    finishReason: { unified: "stop", raw: "stop" },
    usage: {
      inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: 10, text: 10, reasoning: 0 },
    },
    warnings: [],
  };
}

/**
 * A MockLanguageModelV3 answering each structured output (`responseFormat.name`) with its
 * script; names without one, and scripts returning null, get the offline model's answer.
 * Throwing from a script fails the call.
 */
export function scriptedModel(script: Record<string, Respond> = {}): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: async (options) => {
      const name = options.responseFormat?.type === "json" ? options.responseFormat.name : undefined;
      const respond = name ? script[name] : undefined;
      const text = respond ? await respond(options) : null;
      return text === null ? offlineLanguageModel.doGenerate(options) : generated(text);
    },
  });
}

/** The user-role text of a call's prompt (where the prompts put their data). */
export function promptText(options: LanguageModelV3CallOptions): string {
  return options.prompt
    .filter((message) => message.role === "user")
    .flatMap((message) => message.content)
    .map((part) => (part.type === "text" ? part.text : ""))
    .join("\n");
}

/** A MockEmbeddingModelV3 over the offline embedder; `fail(values)` returning an Error fails that call. */
export function mockEmbeddingModel(fail?: (values: string[]) => Error | undefined): MockEmbeddingModelV3 {
  return new MockEmbeddingModelV3({
    maxEmbeddingsPerCall: 100,
    doEmbed: async ({ values }) => {
      const error = fail?.(values);
      if (error) throw error;
      return { embeddings: values.map(embedOffline), warnings: [] };
    },
  });
}

export function embedWith(model: MockEmbeddingModelV3): (texts: string[]) => Promise<number[][]> {
  return async (texts) => (await embedMany({ model, values: texts, maxRetries: 0 })).embeddings;
}

export function testDeps(db: Db, overrides: Partial<ExtractionDeps> = {}): ExtractionDeps {
  return {
    db,
    model: scriptedModel(),
    embed: embedWith(mockEmbeddingModel()),
    embeddingModel: OFFLINE_EMBEDDER_ID,
    now: () => new Date(),
    ...overrides,
  };
}

/** A controllable promise: tests hold a model or embedder call open and release it later. */
export function gate(): { promise: Promise<void>; open: () => void } {
  let open = () => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}
