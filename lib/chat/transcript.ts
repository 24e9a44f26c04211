/**
 * A conversation's messages for the chat view: each assistant message with the summary of its
 * debug record (model, latency, tokens, memories used and the branches that chose them) and of
 * its memory extraction. Owner-scoped (db/queries/transcript.ts).
 */
import type { Db } from "@/db/client";
import { listTranscriptRows } from "@/db/queries/transcript";
import type { ContextTrace } from "@/lib/memory/retrieval/trace";

export interface UsedMemory {
  memoryId: string;
  title: string | null;
  /** The branches that selected it: "semantic", "conversation" or both. */
  branches: string[];
  /** Deleted since the answer: its title is no longer kept (db/queries/redaction.ts). */
  deleted: boolean;
}

/** The memories of a trace that reached the prompt. */
function usedMemories(trace: unknown): UsedMemory[] {
  return ((trace as ContextTrace | null)?.candidates ?? [])
    .filter((c) => c.fate === "included")
    .map((c) => ({ memoryId: c.memoryId, title: c.title, branches: c.selectedBy, deleted: c.redacted === true }));
}

export async function listTranscript(db: Db, input: { userId: string; conversationId: string }) {
  const rows = await listTranscriptRows(db, input);
  return rows.map(({ debug, ...message }) => {
    if (!debug) return { ...message, debug: null };
    const { trace, ...summary } = debug;
    return { ...message, debug: { ...summary, memoriesUsed: usedMemories(trace) } };
  });
}

export type TranscriptMessage = Awaited<ReturnType<typeof listTranscript>>[number];
