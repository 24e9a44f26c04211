/**
 * One remember at a time per user applies its plan, and only a plan made on the near memories as
 * they are then: eight parallel calls of one fact store it once (an add, then seven skips).
 */
import type { LanguageModelV4 } from "@ai-sdk/provider";
import { truncateChars } from "@/core/text";
import type { Db } from "@/db/client";
import { lockConsolidation } from "@/db/queries/memories";
import type { MemoryType } from "@/db/schema";
import { type ConsolidationDecision, planConsolidation, planStillHolds } from "@/lib/memory/extraction/consolidate";
import type { ExtractedMemory } from "@/lib/memory/extraction/extract";
import { titleMemory } from "@/lib/memory/extraction/memory-title";
import { applyDecisions, type StoredDecision } from "@/lib/memory/extraction/store";
import { embedMemoryTexts, memoryEmbeddingText } from "@/lib/memory/store/memory-store";

export interface RememberInput<T> {
  userId: string;
  token: { id: string; name: string };
  content: string;
  type?: MemoryType;
  model: LanguageModelV4;
  embed: (texts: string[]) => Promise<number[][]>;
  embeddingModel: string;
  now: Date;
  /** If it throws, the write is not committed either. */
  beforeCommit: (tx: Db, outcome: RememberOutcome) => Promise<T>;
}

export interface RememberOutcome {
  action: "add" | "update" | "supersede" | "skip";
  memories: { id: string; title?: string | null; content?: string; status: string }[];
  note: string;
}

const NOTES: Record<RememberOutcome["action"], string> = {
  add: "Remembered as a new memory.",
  update: "Merged into a memory Lifeline already had (same fact, more detail).",
  supersede: "Remembered; it replaces an older memory on the same subject, which is kept as superseded.",
  skip: "Already known: nothing was stored.",
};

export async function rememberMemory<T>(
  db: Db,
  input: RememberInput<T>,
): Promise<{ outcome: RememberOutcome; committed: T }> {
  const type = input.type ?? "fact";
  const candidate: ExtractedMemory = {
    title: await titleMemory(input.model, { content: input.content, type }),
    content: input.content,
    type,
    importance: 0.5,
    tags: [],
    confidence: 1,
    isActionable: false,
    deadline: null,
    evidence: [{ role: "user", quote: truncateChars(input.content, 500) }],
    provenance: "user_stated",
    status: "active",
  };
  const [embedding] = await embedMemoryTexts(input.embed, [memoryEmbeddingText(candidate)]);
  if (!embedding) throw new Error("remember: the embedder returned no embedding");
  const deps = { db, model: input.model, embed: input.embed, embeddingModel: input.embeddingModel };
  const plan = { userId: input.userId, candidates: [candidate], embeddings: [embedding] };
  // Planned outside the transaction, so that no transaction waits on a model call unless it must.
  const planned = await planConsolidation(deps, plan);
  return db.transaction(async (tx) => {
    await lockConsolidation(tx, { userId: input.userId });
    // A write since the plan (a parallel remember of the same fact) changed what it was made on:
    // planned again, under the lock, on what the earlier writes committed.
    const decisions = (await planStillHolds({ ...deps, db: tx }, plan, planned))
      ? planned
      : await planConsolidation({ ...deps, db: tx }, plan);
    const applied = await applyDecisions(tx, {
      userId: input.userId,
      candidates: [candidate],
      embeddings: [embedding],
      decisions,
      embeddingModel: input.embeddingModel,
      now: input.now,
      source: { sourceAccessTokenId: input.token.id, examinedMessageIds: [] },
      actor: { actor: "user" },
    });
    const outcome = outcomeOf(candidate, decisions[0], applied.decisions[0]);
    return { outcome, committed: await input.beforeCommit(tx, outcome) };
  });
}

function outcomeOf(
  candidate: ExtractedMemory,
  planned: ConsolidationDecision | undefined,
  decision: StoredDecision | undefined,
): RememberOutcome {
  if (!decision) throw new Error("remember: no decision applied");
  const memories: RememberOutcome["memories"] = [];
  if (decision.memoryId) {
    const { title, content } =
      decision.action === "update" || decision.action === "skip"
        ? (planned?.merged ?? planned?.near.find((near) => near.id === decision.memoryId) ?? candidate)
        : candidate;
    memories.push({ id: decision.memoryId, title, content, status: "active" });
  }
  if (decision.action === "supersede" && decision.targetId) {
    memories.push({ id: decision.targetId, status: "superseded" });
  }
  return { action: decision.action, memories, note: NOTES[decision.action] };
}
