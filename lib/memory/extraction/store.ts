/**
 * ONE transaction that starts by locking the extraction row: with the status check, a redelivered
 * event or duplicate run writes nothing, so a message pair never yields a second memory. Targets are
 * re-checked under lock because the plan may be replayed from Inngest's memo: a target deleted or
 * superseded meanwhile turns the decision into an add, and the decision says so.
 */
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { completeExtraction, lockExtraction, RUNNABLE_STATUSES, skipIfMemoryOff } from "@/db/queries/extractions";
import { insertMemory, lockMemory, type MemoryRow, type NewMemory } from "@/db/queries/memories";
import { insertMemoryEvents, type NewMemoryEvent, priorOf, snapshotOf } from "@/db/queries/memory-events";
import { type ExtractionStatus, memories } from "@/db/schema";
import type { ConsolidationDecision, DecisionAction, NearRef } from "./consolidate";
import type { ExtractedMemory } from "./extract";

const MAX_TAGS = 10;
const MAX_EVIDENCE = 10;

export type StoredDecision = {
  candidate: Pick<ExtractedMemory, "title" | "content" | "type" | "provenance" | "confidence" | "evidence">;
  action: DecisionAction;
  targetId: string | null;
  memoryId: string | null;
  reason: string;
  decidedBy: ConsolidationDecision["decidedBy"];
  near: NearRef[];
  override: string | null;
  /** A memory it touched was deleted afterwards and its text redacted (db/queries/redaction.ts). */
  redacted?: boolean;
};

export interface StoreInput {
  extractionId: string;
  userId: string;
  conversationId: string;
  userMessageId: string;
  assistantMessageId: string;
  examinedMessageIds: string[];
  candidates: readonly ExtractedMemory[];
  embeddings: readonly number[][];
  decisions: readonly ConsolidationDecision[];
  /** The model calls behind the decisions, as lib/ai/capture.ts captured them: the extraction call, then consolidation's. */
  modelInput: readonly unknown[];
  embeddingModel: string;
  now: Date;
}

export type StoreResult =
  | { status: "succeeded"; memoryIds: string[]; decisions: StoredDecision[]; alreadyStored: boolean }
  | { status: Exclude<ExtractionStatus, "succeeded"> | "missing"; notRunnable: true };

const APPLICABLE_TARGET = new Set<MemoryRow["status"]>(["active", "pending_confirmation"]);

function union<T>(a: readonly T[], b: readonly T[], max = Number.POSITIVE_INFINITY): T[] {
  return [...new Set([...a, ...b])].slice(0, max);
}

function unionEvidence(a: MemoryRow["evidence"], b: MemoryRow["evidence"]): MemoryRow["evidence"] {
  const seen = new Set<string>();
  return [...a, ...b]
    .filter((e) => {
      const key = `${e.role}\u0000${e.quote}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .slice(-MAX_EVIDENCE);
}

export async function storeExtraction(db: Db, input: StoreInput): Promise<StoreResult> {
  return db.transaction(async (tx) => {
    const row = await lockExtraction(tx, { extractionId: input.extractionId });
    if (!row) return { status: "missing", notRunnable: true };
    if (row.status === "succeeded") {
      return {
        status: "succeeded",
        memoryIds: row.memoryIds,
        decisions: row.decisions as StoredDecision[],
        alreadyStored: true,
      };
    }
    if (!(RUNNABLE_STATUSES as readonly ExtractionStatus[]).includes(row.status)) {
      return { status: row.status, notRunnable: true };
    }
    // Memory switched off while the job ran: nothing is stored.
    if (await skipIfMemoryOff(tx, { extractionId: input.extractionId, now: input.now })) {
      return { status: "skipped", notRunnable: true };
    }
    const { memoryIds, decisions } = await applyDecisions(tx, {
      userId: input.userId,
      candidates: input.candidates,
      embeddings: input.embeddings,
      decisions: input.decisions,
      embeddingModel: input.embeddingModel,
      now: input.now,
      source: {
        sourceConversationId: input.conversationId,
        sourceUserMessageId: input.userMessageId,
        sourceAssistantMessageId: input.assistantMessageId,
        examinedMessageIds: input.examinedMessageIds,
      },
      actor: { actor: "extraction", extractionId: input.extractionId },
    });
    await completeExtraction(tx, {
      extractionId: input.extractionId,
      memoryIds,
      decisions,
      modelInput: input.modelInput,
      now: input.now,
    });
    return { status: "succeeded", memoryIds, decisions, alreadyStored: false };
  });
}

export type MemorySource = Pick<
  NewMemory,
  "sourceConversationId" | "sourceUserMessageId" | "sourceAssistantMessageId" | "sourceAccessTokenId"
> & { examinedMessageIds: string[] };

export interface ApplyInput {
  userId: string;
  candidates: readonly ExtractedMemory[];
  embeddings: readonly number[][];
  decisions: readonly ConsolidationDecision[];
  embeddingModel: string;
  now: Date;
  source: MemorySource;
  actor: { actor: NewMemoryEvent["actor"]; extractionId?: string };
}

/** Shared by extraction and MCP `remember`, inside the caller's transaction. */
export async function applyDecisions(
  tx: Db,
  input: ApplyInput,
): Promise<{ memoryIds: string[]; decisions: StoredDecision[] }> {
  const memoryIds: string[] = [];
  const stored: StoredDecision[] = [];
  const events: NewMemoryEvent[] = [];
  const actor = input.actor;

  const newMemory = (candidate: ExtractedMemory, embedding: number[]): NewMemory => ({
    userId: input.userId,
    content: candidate.content,
    title: candidate.title,
    type: candidate.type,
    tags: candidate.tags.slice(0, MAX_TAGS),
    importance: candidate.importance,
    confidence: candidate.confidence,
    embedding,
    embeddingModel: input.embeddingModel,
    ...input.source,
    evidence: candidate.evidence,
    provenance: candidate.provenance,
    status: candidate.status,
    isActionable: candidate.isActionable,
    deadline: candidate.deadline,
    createdAt: input.now,
    updatedAt: input.now,
  });

  const add = async (candidate: ExtractedMemory, embedding: number[], reason: string): Promise<MemoryRow> => {
    const created = await insertMemory(tx, newMemory(candidate, embedding));
    events.push({
      userId: input.userId,
      memoryId: created.id,
      action: "create",
      before: null,
      after: snapshotOf(created),
      reason,
      ...actor,
    });
    memoryIds.push(created.id);
    return created;
  };

  const update = async (target: MemoryRow, changes: Partial<NewMemory>): Promise<MemoryRow> => {
    const [updated] = await tx
      .update(memories)
      .set({ ...changes, updatedAt: input.now })
      .where(and(eq(memories.id, target.id), eq(memories.userId, input.userId)))
      .returning();
    if (!updated) throw new Error(`storeExtraction: memory ${target.id} vanished under its lock`);
    return updated;
  };

  for (const decision of input.decisions) {
    const candidate = input.candidates[decision.candidate];
    const embedding = input.embeddings[decision.candidate];
    if (!candidate || !embedding) throw new Error(`storeExtraction: no candidate ${decision.candidate}`);
    const record: StoredDecision = {
      candidate: {
        title: candidate.title,
        content: candidate.content,
        type: candidate.type,
        provenance: candidate.provenance,
        confidence: candidate.confidence,
        evidence: candidate.evidence,
      },
      action: decision.action,
      targetId: decision.targetId,
      memoryId: null,
      reason: decision.reason,
      decidedBy: decision.decidedBy,
      near: decision.near,
      override: decision.override,
    };
    const reason = `${decision.action}: ${decision.reason}`;

    const target = decision.targetId
      ? await lockMemory(tx, { userId: input.userId, memoryId: decision.targetId })
      : null;
    const targetUsable = target !== null && APPLICABLE_TARGET.has(target.status);
    if ((decision.action === "update" || decision.action === "supersede") && !targetUsable) {
      record.override = `${record.override ? `${record.override} ` : ""}The target is ${target ? target.status : "gone"} now: added instead.`;
      record.action = "add";
      record.memoryId = (await add(candidate, embedding, `add: ${decision.action} target no longer applicable`)).id;
      stored.push(record);
      continue;
    }

    switch (decision.action) {
      case "add": {
        record.memoryId = (await add(candidate, embedding, reason)).id;
        break;
      }
      case "supersede": {
        if (!target) break;
        const created = await add(candidate, embedding, `${reason} (replaces ${target.id})`);
        const superseded = await update(target, { status: "superseded", supersededById: created.id });
        events.push({
          userId: input.userId,
          memoryId: target.id,
          action: "supersede",
          before: snapshotOf(target),
          after: snapshotOf(superseded),
          prior: priorOf(target),
          reason,
          ...actor,
        });
        record.memoryId = created.id;
        break;
      }
      case "update": {
        if (!target || !decision.merged) break;
        const merged = decision.merged;
        const updated = await update(target, {
          title: merged.title,
          content: merged.content,
          type: candidate.type,
          embedding: merged.embedding,
          embeddingModel: input.embeddingModel,
          importance: Math.max(target.importance, candidate.importance),
          confidence: Math.max(target.confidence ?? 0, candidate.confidence),
          tags: union(target.tags, candidate.tags, MAX_TAGS),
          evidence: unionEvidence(target.evidence, candidate.evidence),
          examinedMessageIds: union(target.examinedMessageIds, input.source.examinedMessageIds),
          isActionable: target.isActionable || candidate.isActionable,
          deadline: candidate.deadline ?? target.deadline,
          ...(decision.activates ? { status: "active" as const, provenance: "user_stated" as const } : {}),
        });
        events.push({
          userId: input.userId,
          memoryId: target.id,
          action: "update",
          before: snapshotOf(target),
          after: snapshotOf(updated),
          prior: priorOf(target),
          reason,
          ...actor,
        });
        memoryIds.push(target.id);
        record.memoryId = target.id;
        break;
      }
      case "skip": {
        // Nothing changes; the target's history still records that the fact was seen again.
        if (target && targetUsable) {
          const snapshot = snapshotOf(target);
          events.push({
            userId: input.userId,
            memoryId: target.id,
            action: "update",
            before: snapshot,
            after: snapshot,
            reason,
            ...actor,
          });
          record.memoryId = target.id;
        } else if (target) {
          record.override = `The target is ${target.status} now: nothing stored.`;
        }
        break;
      }
    }
    stored.push(record);
  }

  await insertMemoryEvents(tx, events);
  return { memoryIds, decisions: stored };
}
