/**
 * Each candidate is compared with the user's near memories (findNearMemories) and one decision is made:
 *
 *   add        nothing near, or near memories state other facts
 *   update     the same fact with more or corrected detail → merged into the stored memory (re-embedded)
 *   supersede  a new value for the same subject → the stored memory becomes `superseded` (kept, linked)
 *   skip       already known
 *
 * The model's answer is held to two rules it cannot override:
 *   - an assistant suggestion never changes a stored memory: its update/supersede becomes an add
 *     (pending, for the user to confirm);
 *   - a user statement of something only pending becomes an update that activates it.
 */
import type { LanguageModelV4 } from "@ai-sdk/provider";
import { type ConsolidationConfig, consolidationConfig } from "@/core/config";
import type { Db } from "@/db/client";
import { findNearMemories, type NearMemory } from "@/db/queries/memories";
import type { MemoryStatus } from "@/db/schema";
import { embedMemoryTexts, memoryEmbeddingText } from "@/lib/memory/store/memory-store";
import { generateStructured, MalformedOutputError } from "./call";
import {
  buildConsolidationPrompt,
  normaliseMemoryText,
  type ParsedConsolidationPrompt,
  shownConsolidationInput,
} from "./consolidation-prompt";
import { CONSOLIDATION_OUTPUT_NAME, type ConsolidationOutput, consolidationOutputSchema } from "./consolidation-schema";
import type { ExtractedMemory } from "./extract";

export type DecisionAction = "add" | "update" | "supersede" | "skip";

export type NearRef = {
  id: string;
  title: string | null;
  content: string;
  status: MemoryStatus;
  similarity: number;
  /** Absent in decisions stored before the text match existed. */
  foundBy?: NearMemory["foundBy"];
};

export type ConsolidationDecision = {
  candidate: number;
  action: DecisionAction;
  /** null for add (and for a duplicate within one extraction). */
  targetId: string | null;
  reason: string;
  decidedBy: "rule" | "model";
  near: NearRef[];
  merged: { title: string; content: string; embedding: number[] } | null;
  activates: boolean;
  override: string | null;
};

export interface ConsolidationDeps {
  db: Db;
  model: LanguageModelV4;
  embed: (texts: string[]) => Promise<number[][]>;
  embeddingModel: string;
}

export interface ConsolidationInput {
  userId: string;
  candidates: readonly ExtractedMemory[];
  embeddings: readonly number[][];
  config?: ConsolidationConfig;
}

type Planned = Omit<ConsolidationDecision, "merged"> & { merged: { title: string; content: string } | null };

function nearRef(memory: NearMemory): NearRef {
  return {
    id: memory.id,
    title: memory.title,
    content: memory.content,
    status: memory.status,
    similarity: memory.similarity,
    foundBy: memory.foundBy,
  };
}

/** One candidate against its near memories: the one consolidation call. */
export async function askModel(
  model: LanguageModelV4,
  candidate: ExtractedMemory,
  near: readonly NearMemory[],
): Promise<ConsolidationOutput> {
  const input: ParsedConsolidationPrompt = {
    candidate: { title: candidate.title, content: candidate.content, type: candidate.type },
    existing: near.map((memory) => ({ ...memory })),
  };
  const { system, prompt } = buildConsolidationPrompt(input);
  const output = await generateStructured(model, {
    schema: consolidationOutputSchema,
    name: CONSOLIDATION_OUTPUT_NAME,
    system,
    prompt,
    input: shownConsolidationInput(input),
  });
  if (output.action !== "ADD" && !near.some((memory) => memory.id === output.targetId)) {
    throw new MalformedOutputError(
      CONSOLIDATION_OUTPUT_NAME,
      `${output.action} needs the id of one of the near memories as targetId (got ${JSON.stringify(output.targetId)})`,
    );
  }
  return output;
}

function decide(
  index: number,
  candidate: ExtractedMemory,
  near: readonly NearMemory[],
  output: ConsolidationOutput,
): Planned {
  const base = { candidate: index, reason: output.reason, decidedBy: "model" as const, near: near.map(nearRef) };
  const target = near.find((memory) => memory.id === output.targetId);
  if (output.action === "ADD" || !target) {
    return { ...base, action: "add", targetId: null, merged: null, activates: false, override: null };
  }
  const userStated = candidate.provenance === "user_stated";
  if (!userStated && (output.action === "UPDATE" || output.action === "SUPERSEDE")) {
    return {
      ...base,
      action: "add",
      targetId: null,
      merged: null,
      activates: false,
      override: `The model said ${output.action} ${target.id}, but an assistant suggestion never changes a stored memory: added for the user to confirm.`,
    };
  }
  const activates = userStated && target.status === "pending_confirmation";
  if (output.action === "UPDATE" || (output.action === "SKIP" && activates)) {
    return {
      ...base,
      action: "update",
      targetId: target.id,
      merged: {
        title: output.action === "UPDATE" ? (output.title ?? candidate.title) : candidate.title,
        content: output.action === "UPDATE" ? (output.content ?? candidate.content) : candidate.content,
      },
      activates,
      override:
        output.action === "SKIP"
          ? "The model said SKIP, but the stored memory was only a pending suggestion and the user has now stated it: it becomes active."
          : null,
    };
  }
  return {
    ...base,
    action: output.action === "SUPERSEDE" ? "supersede" : "skip",
    targetId: target.id,
    merged: null,
    activates: false,
    override: null,
  };
}

/** The first failure stops the rest and rejects once the running ones settle. */
async function inBatches<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const lane = async () => {
    while (next < items.length && !failed) {
      const item = items[next++] as T;
      await work(item).catch((error: unknown) => {
        failed = true;
        throw error;
      });
    }
  };
  const lanes = Array.from({ length: Math.min(limit, items.length) }, lane);
  const results = await Promise.allSettled(lanes);
  const rejected = results.find((result): result is PromiseRejectedResult => result.status === "rejected");
  if (rejected) throw rejected.reason;
}

function nearMemoriesOf(
  deps: Pick<ConsolidationDeps, "db" | "embeddingModel">,
  userId: string,
  candidate: ExtractedMemory,
  embedding: number[],
  config: ConsolidationConfig,
): Promise<NearMemory[]> {
  return findNearMemories(deps.db, {
    userId,
    embedding,
    embeddingModel: deps.embeddingModel,
    text: memoryEmbeddingText(candidate),
    minSimilarity: config.nearSimilarity,
    limit: config.nearLimit,
  });
}

/** A plan is made before the transaction that applies it; a write in between (a parallel `remember`) makes it stale. */
export async function planStillHolds(
  deps: Pick<ConsolidationDeps, "db" | "embeddingModel">,
  input: ConsolidationInput,
  decisions: readonly ConsolidationDecision[],
): Promise<boolean> {
  const [candidate, embedding, decision] = [input.candidates[0], input.embeddings[0], decisions[0]];
  if (input.candidates.length !== 1 || !candidate || !embedding || !decision) {
    throw new Error("planStillHolds: a plan of one candidate");
  }
  const near = await nearMemoriesOf(deps, input.userId, candidate, embedding, input.config ?? consolidationConfig);
  const key = (memory: Pick<NearRef, "id" | "title" | "content" | "status">) =>
    JSON.stringify([memory.id, memory.title, memory.content, memory.status]);
  const now = near.map(key).sort();
  const then = decision.near.map(key).sort();
  return now.length === then.length && now.every((entry, index) => entry === then[index]);
}

export async function planConsolidation(
  deps: ConsolidationDeps,
  input: ConsolidationInput,
): Promise<ConsolidationDecision[]> {
  const config = input.config ?? consolidationConfig;
  // The model is asked at most `parallelCalls` at a time, so the step's time is bounded by
  // ceil(asks / parallelCalls) calls, not one call per candidate in turn.
  const planned: (Planned | null)[] = [];
  const asks: { slot: number; index: number; candidate: ExtractedMemory; near: NearMemory[] }[] = [];
  const seen = new Map<string, number>();

  for (const [index, candidate] of input.candidates.entries()) {
    const embedding = input.embeddings[index];
    if (!embedding) throw new Error(`planConsolidation: no embedding for candidate ${index}`);
    const key = normaliseMemoryText(candidate.content);
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      planned.push({
        candidate: index,
        action: "skip",
        targetId: null,
        reason: `Repeats candidate ${earlier} of this extraction.`,
        decidedBy: "rule",
        near: [],
        merged: null,
        activates: false,
        override: null,
      });
      continue;
    }
    seen.set(key, index);

    const near = await nearMemoriesOf(deps, input.userId, candidate, embedding, config);
    if (near.length === 0) {
      planned.push({
        candidate: index,
        action: "add",
        targetId: null,
        reason: `No stored memory is at least ${config.nearSimilarity} similar or shares a word with it.`,
        decidedBy: "rule",
        near: [],
        merged: null,
        activates: false,
        override: null,
      });
      continue;
    }
    asks.push({ slot: planned.length, index, candidate, near });
    planned.push(null);
  }
  await inBatches(asks, config.parallelCalls, async ({ slot, index, candidate, near }) => {
    planned[slot] = decide(index, candidate, near, await askModel(deps.model, candidate, near));
  });

  const decided = planned.filter((decision): decision is Planned => decision !== null);
  const merges = decided.flatMap((decision) => (decision.merged ? [decision.merged] : []));
  const vectors = await embedMemoryTexts(deps.embed, merges.map(memoryEmbeddingText));
  let next = 0;
  return decided.map((decision) =>
    decision.merged
      ? { ...decision, merged: { ...decision.merged, embedding: vectors[next++] ?? [] } }
      : { ...decision, merged: null },
  );
}
