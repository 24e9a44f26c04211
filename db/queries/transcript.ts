/**
 * A conversation's messages for the chat view: each assistant message with the summary of its
 * debug record (model, latency, tokens, memories used and the branches that chose them) and of
 * its memory extraction. One query, owner-scoped.
 */
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { memoryExtractions, messages, promptDebug } from "@/db/schema";
import type { ContextTrace } from "@/lib/memory/retrieval/trace";
import { getConversation } from "./conversations";

export interface UsedMemory {
  memoryId: string;
  title: string | null;
  /** The branches that selected it: "semantic", "conversation" or both. */
  branches: string[];
}

export async function listTranscript(db: Db, { userId, conversationId }: { userId: string; conversationId: string }) {
  await getConversation(db, { userId, conversationId });
  const rows = await db
    .select({
      message: messages,
      debug: {
        modelId: promptDebug.modelId,
        provider: promptDebug.provider,
        latencyMs: promptDebug.latencyMs,
        timeToFirstTokenMs: promptDebug.timeToFirstTokenMs,
        totalTokens: promptDebug.totalTokens,
        retrievalStatus: promptDebug.retrievalStatus,
        trace: promptDebug.trace,
      },
      extraction: {
        id: memoryExtractions.id,
        status: memoryExtractions.status,
        memoryIds: memoryExtractions.memoryIds,
        lastError: memoryExtractions.lastError,
        attempts: memoryExtractions.attempts,
      },
    })
    .from(messages)
    .leftJoin(promptDebug, and(eq(promptDebug.messageId, messages.id), eq(promptDebug.userId, userId)))
    .leftJoin(
      memoryExtractions,
      and(eq(memoryExtractions.assistantMessageId, messages.id), eq(memoryExtractions.userId, userId)),
    )
    .where(and(eq(messages.conversationId, conversationId), eq(messages.userId, userId)))
    .orderBy(asc(messages.createdAt), asc(messages.role));

  return rows.map(({ message, debug, extraction }) => {
    const { trace, ...summary } = debug ?? {};
    const used: UsedMemory[] = ((trace as ContextTrace | null)?.candidates ?? [])
      .filter((c) => c.fate === "included")
      .map((c) => ({ memoryId: c.memoryId, title: c.title, branches: c.selectedBy }));
    return {
      ...message,
      debug: debug?.modelId ? { ...summary, memoriesUsed: used } : null,
      extraction: extraction?.id ? extraction : null,
    };
  });
}

export type TranscriptMessage = Awaited<ReturnType<typeof listTranscript>>[number];
