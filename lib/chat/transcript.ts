// A conversation's current branch for the chat view: each message with its versions, each answer with its record's summary.
import type { Db } from "@/db/client";
import { listTranscriptRows } from "@/db/queries/transcript";
import type { ContextTrace } from "@/lib/memory/retrieval/trace";
import { currentBranch, versionsOf } from "./branch";

/** Why a memory was sent (not whether the model used it): matched the message, a tool returned it, or at hand. */
export type MemoryReach = "matched" | "looked_up" | "at_hand";

export interface SentMemory {
  memoryId: string;
  title: string | null;
  /** How it reached the model: the branches that selected it ("pinned", "semantic", "conversation"), "tool". */
  branches: string[];
  reach: MemoryReach;
  /** Deleted since the answer: its title is no longer kept (db/queries/redaction.ts). */
  deleted: boolean;
}

function reachOf(branches: readonly string[]): MemoryReach {
  if (branches.includes("semantic")) return "matched";
  if (branches.includes("tool")) return "looked_up";
  return "at_hand";
}

/** The memories that reached the model: the prompt's lines, then the tools' results (one in both: once). */
export function sentMemories(trace: unknown): SentMemory[] {
  const stored = trace as Pick<ContextTrace, "candidates" | "toolCalls"> | null;
  const sent: SentMemory[] = (stored?.candidates ?? [])
    .filter((c) => c.fate === "included")
    .map((c) => ({
      memoryId: c.memoryId,
      title: c.title,
      branches: [...c.selectedBy],
      reach: reachOf(c.selectedBy),
      deleted: c.redacted === true,
    }));
  const byId = new Map(sent.map((memory) => [memory.memoryId, memory]));
  for (const call of stored?.toolCalls ?? []) {
    for (const row of call.memories) {
      if (row.fate !== "returned") continue;
      const known = byId.get(row.memoryId);
      if (known) {
        if (!known.branches.includes("tool")) known.branches.push("tool");
        known.reach = reachOf(known.branches);
        continue;
      }
      const memory: SentMemory = {
        memoryId: row.memoryId,
        title: row.title,
        branches: ["tool"],
        reach: "looked_up",
        deleted: row.redacted === true,
      };
      byId.set(row.memoryId, memory);
      sent.push(memory);
    }
  }
  return sent;
}

export async function listTranscript(db: Db, input: { userId: string; conversationId: string }) {
  const { currentMessageId, rows } = await listTranscriptRows(db, input);
  const versions = versionsOf(rows);
  return currentBranch(rows, currentMessageId).map(({ debug, ...message }) => {
    const known = versions.get(message.id);
    // Versions only where there are several: the chat shows "‹ 2 / 3 ›" there.
    const shown = { ...message, versions: known && known.ids.length > 1 ? known : null };
    if (!debug) return { ...shown, debug: null };
    const { trace, ...summary } = debug;
    const sent = sentMemories(trace);
    return {
      ...shown,
      debug: {
        ...summary,
        memoriesSent: sent,
        // memoriesUsed: the same list under its former name, kept for scripts that read it (docs/api.md).
        memoriesUsed: sent,
        /** The user's memories this answer's retrieval could not compare: waiting for re-embedding. */
        memoriesReindexing: (trace as ContextTrace | null)?.waitingForReembedding ?? 0,
      },
    };
  });
}

export type TranscriptMessage = Awaited<ReturnType<typeof listTranscript>>[number];
