import { createHash, randomUUID } from "node:crypto";
import { eq, like } from "drizzle-orm";
import type { Db } from "@/db/client";
import { insertMemory } from "@/db/queries/memories";
import { createUser } from "@/db/queries/users";
import { users } from "@/db/schema";
import { embedMemoryTexts, memoryEmbeddingText } from "@/lib/memory/store/memory-store";
import type { EvalCorpus } from "./dataset";

export interface Embedder {
  /** Stored as memories.embedding_model and filtered on by retrieval. */
  id: string;
  embed(texts: string[]): Promise<number[][]>;
}

export interface LoadedCorpus {
  userId: string;
  keyOf: ReadonlyMap<string, string>;
  idOf: ReadonlyMap<string, string>;
}

/** Reserved: never a real address. */
export const EVAL_EMAIL_DOMAIN = "eval.lifeline.invalid";

/**
 * Equal scores are ordered by id, so derived ids make runs repeatable (two evaluations must
 * therefore not run at once against the same database).
 */
export function memoryIdFor(corpus: string, key: string): string {
  const hex = createHash("sha256").update(`${corpus}\u0000${key}`).digest("hex").slice(0, 32).split("");
  hex[12] = "4";
  hex[16] = "8";
  const s = hex.join("");
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

/** The OpenAI API takes up to 2048; smaller batches keep progress visible. */
export const EMBED_BATCH = 256;

export async function embedInBatches(
  embedder: Embedder,
  texts: readonly string[],
  onBatch: (done: number) => void = () => {},
): Promise<number[][]> {
  const vectors: number[][] = [];
  for (let i = 0; i < texts.length; i += EMBED_BATCH) {
    const batch = texts.slice(i, i + EMBED_BATCH);
    vectors.push(...(await embedMemoryTexts((values) => embedder.embed(values), batch)));
    onBatch(batch.length);
  }
  return vectors;
}

export async function loadCorpus(
  db: Db,
  corpus: EvalCorpus,
  embedder: Embedder,
  onMemory: (done: number) => void = () => {},
): Promise<LoadedCorpus> {
  const vectors = await embedCorpus(embedder, corpus);
  return db.transaction(async (tx) => {
    const user = await createUser(tx, {
      email: `eval-${randomUUID()}@${EVAL_EMAIL_DOMAIN}`,
      name: `eval ${corpus.name}`,
      passwordHash: null,
    });
    return { userId: user.id, ...(await insertCorpusMemories(tx, user.id, corpus, vectors, embedder, onMemory)) };
  });
}

export function embedCorpus(embedder: Embedder, corpus: EvalCorpus): Promise<number[][]> {
  return embedInBatches(
    embedder,
    corpus.memories.map((memory) => memoryEmbeddingText(memory)),
  );
}

export async function insertCorpusMemories(
  db: Db,
  userId: string,
  corpus: EvalCorpus,
  vectors: readonly number[][],
  embedder: Embedder,
  onMemory: (done: number) => void = () => {},
): Promise<Omit<LoadedCorpus, "userId">> {
  const keyOf = new Map<string, string>();
  const idOf = new Map<string, string>();
  for (const [i, memory] of corpus.memories.entries()) {
    const row = await insertMemory(db, {
      id: memoryIdFor(corpus.name, memory.key),
      userId,
      content: memory.content,
      title: memory.title,
      type: memory.type,
      importance: memory.importance,
      embedding: vectors[i],
      embeddingModel: embedder.id,
      provenance: "user_created",
      status: "active",
      createdAt: memory.createdAt,
      updatedAt: memory.updatedAt,
    });
    keyOf.set(row.id, memory.key);
    idOf.set(memory.key, row.id);
    onMemory(1);
  }
  return { keyOf, idOf };
}

export async function removeLeftoverEvalUsers(db: Db): Promise<void> {
  await db.delete(users).where(like(users.email, `%@${EVAL_EMAIL_DOMAIN}`));
}

export async function removeCorpus(db: Db, loaded: Pick<LoadedCorpus, "userId">): Promise<void> {
  await db.delete(users).where(eq(users.id, loaded.userId));
}
