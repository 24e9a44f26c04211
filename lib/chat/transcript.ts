/**
 * A conversation's messages for the chat view: the current branch (lib/chat/branch.ts), each
 * message with its versions (its siblings' ids, for "‹ 2 / 3 ›") and each assistant message with
 * the summary of its debug record (model, latency, tokens, memories used and the branches that
 * chose them) and of its memory extraction. Owner-scoped (db/queries/transcript.ts).
 */
import type { Db } from "@/db/client";
import { listTranscriptRows } from "@/db/queries/transcript";
import type { ContextTrace } from "@/lib/memory/retrieval/trace";
import { currentBranch, versionsOf } from "./branch";

export interface UsedMemory {
  memoryId: string;
  title: string | null;
  /** How it reached the model: the branches that selected it ("pinned", "semantic", "conversation"), "tool". */
  branches: string[];
  /** Deleted since the answer: its title is no longer kept (db/queries/redaction.ts). */
  deleted: boolean;
}

/**
 * The memories of a trace that reached the model: those whose line was in the prompt, then those a
 * memory tool returned (branch "tool"; a memory in both lists once, with both).
 */
function usedMemories(trace: unknown): UsedMemory[] {
  const stored = trace as ContextTrace | null;
  const used: UsedMemory[] = (stored?.candidates ?? [])
    .filter((c) => c.fate === "included")
    .map((c) => ({ memoryId: c.memoryId, title: c.title, branches: [...c.selectedBy], deleted: c.redacted === true }));
  const byId = new Map(used.map((memory) => [memory.memoryId, memory]));
  for (const call of stored?.toolCalls ?? []) {
    for (const row of call.memories) {
      if (row.fate !== "returned") continue;
      const known = byId.get(row.memoryId);
      if (known) {
        if (!known.branches.includes("tool")) known.branches.push("tool");
        continue;
      }
      const memory: UsedMemory = {
        memoryId: row.memoryId,
        title: row.title,
        branches: ["tool"],
        deleted: row.redacted === true,
      };
      byId.set(row.memoryId, memory);
      used.push(memory);
    }
  }
  return used;
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
    return {
      ...shown,
      debug: {
        ...summary,
        memoriesUsed: usedMemories(trace),
        /** The user's memories this answer's retrieval could not compare: waiting for re-embedding. */
        memoriesReindexing: (trace as ContextTrace | null)?.waitingForReembedding ?? 0,
      },
    };
  });
}

export type TranscriptMessage = Awaited<ReturnType<typeof listTranscript>>[number];
