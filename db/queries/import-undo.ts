import { and, asc, eq, inArray, isNull, or } from "drizzle-orm";
import { AppError } from "@/core/errors";
import type { Db } from "@/db/client";
import { conversations, imports, memories, memoryEvents, memoryExtractions } from "@/db/schema";
import { insertMemoryEvents, snapshotOf } from "./memory-events";
import { redactDeletedMemories } from "./redaction";

export interface UndoneImport {
  conversationsDeleted: number;
  /** Memories the import created: erased, their text redacted from every derived record (as Delete all does). */
  memoriesErased: number;
  /** Memories an imported one had superseded: active again. */
  memoriesRestored: number;
  /** Memories the import only updated: they keep the update, which their history shows. */
  memoriesKeptUpdated: number;
}

/**
 * Removes what an import brought, in one transaction: its conversations (their messages, extractions and
 * records cascade), the memories its exchanges created, and the import itself; a memory one of them superseded
 * is active again. A store in flight commits first: its extraction row is locked before anything it references,
 * the order a store takes them in.
 */
export async function undoImport(
  db: Db,
  { userId, importId }: { userId: string; importId: string },
): Promise<UndoneImport> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ id: imports.id })
      .from(imports)
      .where(and(eq(imports.id, importId), eq(imports.userId, userId)))
      .for("update");
    if (!row) throw new AppError("not_found:import", "Import not found");

    const extractionIds = (
      await tx
        .select({ id: memoryExtractions.id })
        .from(memoryExtractions)
        .where(and(eq(memoryExtractions.importId, importId), eq(memoryExtractions.userId, userId)))
        .orderBy(asc(memoryExtractions.id))
        .for("update")
    ).map((r) => r.id);
    // An import not kept has no extractions left: its events carry its id instead.
    const events = await tx
      .select({ memoryId: memoryEvents.memoryId, action: memoryEvents.action })
      .from(memoryEvents)
      .where(
        and(
          eq(memoryEvents.userId, userId),
          extractionIds.length === 0
            ? eq(memoryEvents.importId, importId)
            : or(inArray(memoryEvents.extractionId, extractionIds), eq(memoryEvents.importId, importId)),
        ),
      );
    const importedConversations = (
      await tx
        .select({ id: conversations.id })
        .from(conversations)
        .where(and(eq(conversations.importId, importId), eq(conversations.userId, userId)))
    ).map((r) => r.id);

    const createdByEvent = events.filter((e) => e.action === "create").map((e) => e.memoryId);
    const fromImport = [
      ...(createdByEvent.length > 0 ? [inArray(memories.id, createdByEvent)] : []),
      ...(importedConversations.length > 0 ? [inArray(memories.sourceConversationId, importedConversations)] : []),
    ];
    // Without a condition `or()` is empty and the filter would be the user's alone: every memory.
    const created =
      fromImport.length === 0
        ? []
        : await tx
            .select({ id: memories.id })
            .from(memories)
            .where(and(eq(memories.userId, userId), or(...fromImport)))
            .orderBy(asc(memories.id))
            .for("update");
    const erasedIds = created.map((m) => m.id);
    if (erasedIds.length > 0) {
      await tx.delete(memories).where(and(eq(memories.userId, userId), inArray(memories.id, erasedIds)));
      await redactDeletedMemories(tx, { userId, memoryIds: erasedIds });
    }

    const supersededIds = events.filter((e) => e.action === "supersede").map((e) => e.memoryId);
    const restored =
      supersededIds.length === 0
        ? []
        : await tx
            .update(memories)
            .set({ status: "active" })
            .where(
              and(
                eq(memories.userId, userId),
                inArray(memories.id, supersededIds),
                eq(memories.status, "superseded"),
                isNull(memories.supersededById),
              ),
            )
            .returning();
    await insertMemoryEvents(
      tx,
      restored.map((memory) => ({
        userId,
        memoryId: memory.id,
        action: "restore",
        actor: "system",
        before: { ...snapshotOf(memory), status: "superseded" },
        after: snapshotOf(memory),
        reason: "the import that superseded it was undone",
      })),
    );

    const erased = new Set(erasedIds);
    const keptUpdated = new Set(
      events.filter((e) => e.action === "update" && !erased.has(e.memoryId)).map((e) => e.memoryId),
    );
    const deletedConversations =
      importedConversations.length === 0
        ? []
        : await tx
            .delete(conversations)
            .where(and(eq(conversations.userId, userId), inArray(conversations.id, importedConversations)))
            .returning({ id: conversations.id });
    await tx.delete(imports).where(and(eq(imports.id, importId), eq(imports.userId, userId)));
    return {
      conversationsDeleted: deletedConversations.length,
      memoriesErased: erasedIds.length,
      memoriesRestored: restored.length,
      memoriesKeptUpdated: keptUpdated.size,
    };
  });
}
