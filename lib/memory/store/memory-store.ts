/** Every writer of memories.embedding goes through here, so the stored vector always describes the stored text. */

import { AppError } from "@/core/errors";
import type { Db } from "@/db/client";
import {
  getMemory,
  insertMemory,
  type MemoryPatch,
  type MemoryRecord,
  toMemoryRecord,
  updateMemory,
} from "@/db/queries/memories";
import { insertMemoryEvents, snapshotOf } from "@/db/queries/memory-events";
import { NEVER_USED } from "@/db/queries/memory-usage";
import { memoryEmbeddingText, vectorProblem } from "@/db/queries/vectors";
import type { MemoryType } from "@/db/schema";

/** Defined beside the vectors, so db/queries/import-undo.ts can tell when a restored memory needs a new one. */
export { memoryEmbeddingText };

export class EmbeddingOutputError extends Error {
  override readonly name = "EmbeddingOutputError";
}

export async function embedMemoryTexts(
  embed: (texts: string[]) => Promise<number[][]>,
  texts: readonly string[],
): Promise<number[][]> {
  if (texts.length === 0) return [];
  const vectors = await embed([...texts]);
  if (vectors.length !== texts.length) {
    throw new EmbeddingOutputError(`The embedder returned ${vectors.length} embeddings for ${texts.length} texts`);
  }
  for (const vector of vectors) {
    const problem = vectorProblem(vector);
    if (problem) throw new EmbeddingOutputError(`The embedder returned an embedding that ${problem}`);
  }
  return vectors;
}

export interface MemoryEmbedder {
  embed(texts: string[]): Promise<number[][]>;
  model: string;
}

/** Pinning alone embeds nothing and is not an edit (edited_at and updated_at untouched). */
export async function editMemory(
  db: Db,
  input: { userId: string; memoryId: string; patch: MemoryPatch },
  embedder: MemoryEmbedder,
): Promise<MemoryRecord> {
  const current = await getMemory(db, input);
  if (current.status === "deleted") {
    throw new AppError("conflict:memory_deleted", "This memory is deleted; restore it before editing it");
  }
  const title = input.patch.title !== undefined ? input.patch.title : current.title;
  const content = input.patch.content ?? current.content;
  if (title === current.title && content === current.content) return updateMemory(db, input);
  const [vector] = await embedMemoryTexts((texts) => embedder.embed(texts), [memoryEmbeddingText({ title, content })]);
  if (!vector) throw new EmbeddingOutputError("The embedder returned no embedding");
  return updateMemory(db, { ...input, embedding: { vector, model: embedder.model, title, content } });
}

export interface NewUserMemory {
  userId: string;
  content: string;
  title?: string | null;
  type?: MemoryType;
  importance?: number;
  tags?: string[];
}

/** All embedded first, then written in one transaction: all of them or none. */
export async function createPastedMemories(
  db: Db,
  input: { userId: string; contents: string[]; pastedAt: Date },
  embedder: MemoryEmbedder,
): Promise<MemoryRecord[]> {
  const vectors = await embedMemoryTexts(
    (texts) => embedder.embed(texts),
    input.contents.map((content) => memoryEmbeddingText({ title: null, content })),
  );
  return db.transaction(async (tx) => {
    const records: MemoryRecord[] = [];
    for (const [index, content] of input.contents.entries()) {
      const vector = vectors[index];
      if (!vector) throw new EmbeddingOutputError("The embedder returned fewer embeddings than texts");
      const row = await insertMemory(tx, {
        userId: input.userId,
        content,
        embedding: vector,
        embeddingModel: embedder.model,
        provenance: "user_created",
        status: "active",
        pastedAt: input.pastedAt,
      });
      await insertMemoryEvents(tx, [
        {
          userId: input.userId,
          memoryId: row.id,
          action: "create",
          actor: "user",
          before: null,
          after: snapshotOf(row),
          reason: "pasted from another assistant's memory list",
        },
      ]);
      records.push(toMemoryRecord({ ...row, ...NEVER_USED }));
    }
    return records;
  });
}

export async function createUserMemory(db: Db, input: NewUserMemory, embedder: MemoryEmbedder): Promise<MemoryRecord> {
  const title = input.title ?? null;
  const [vector] = await embedMemoryTexts(
    (texts) => embedder.embed(texts),
    [memoryEmbeddingText({ title, content: input.content })],
  );
  if (!vector) throw new EmbeddingOutputError("The embedder returned no embedding");
  return db.transaction(async (tx) => {
    const row = await insertMemory(tx, {
      userId: input.userId,
      content: input.content,
      title,
      type: input.type,
      importance: input.importance,
      tags: input.tags,
      embedding: vector,
      embeddingModel: embedder.model,
      provenance: "user_created",
      status: "active",
    });
    await insertMemoryEvents(tx, [
      { userId: input.userId, memoryId: row.id, action: "create", actor: "user", before: null, after: snapshotOf(row) },
    ]);
    return toMemoryRecord({ ...row, ...NEVER_USED });
  });
}
