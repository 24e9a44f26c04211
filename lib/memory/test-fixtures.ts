/** Fixtures for lib/memory's tests: seeded randomness, vectors, users, conversations and memories. */
import type { Db } from "@/db/client";
import { conversations, memories, users } from "@/db/schema";
import { EMBEDDING_DIMENSIONS } from "@/lib/config";

export const DAY_MS = 86_400_000;

/** The embedding_model of fixture memories (hand-made vectors), unless a test sets its own. */
export const TEST_EMBEDDER = "test/fixture";

/** mulberry32: a small, fast, seeded PRNG returning floats in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** An integer in [min, max]. */
export function randomInt(random: () => number, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

/** A version-4-shaped UUID drawn from `random`, so test ids (and id tie-breaks) are reproducible. */
export function randomUuid(random: () => number): string {
  const hex = Array.from({ length: 32 }, () => randomInt(random, 0, 15).toString(16));
  hex[12] = "4";
  hex[16] = "8";
  const s = hex.join("");
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

/** A full-size vector that is zero except for the given components. */
export function sparseVector(components: Record<number, number>): number[] {
  const vector = new Array<number>(EMBEDDING_DIMENSIONS).fill(0);
  for (const [index, value] of Object.entries(components)) vector[Number(index)] = value;
  return vector;
}

export async function createUser(db: Db, name: string): Promise<string> {
  const [user] = await db
    .insert(users)
    .values({ name, email: `${name.toLowerCase()}-${crypto.randomUUID()}@example.com` })
    .returning({ id: users.id });
  if (!user) throw new Error("no user inserted");
  return user.id;
}

export async function createConversation(db: Db, userId: string): Promise<string> {
  const [conversation] = await db.insert(conversations).values({ userId }).returning({ id: conversations.id });
  if (!conversation) throw new Error("no conversation inserted");
  return conversation.id;
}

export type MemoryFixture = Omit<typeof memories.$inferInsert, "provenance"> & {
  provenance?: (typeof memories.$inferInsert)["provenance"];
};

/**
 * Inserts memories (provenance defaults to user_created, embedding_model to TEST_EMBEDDER) and
 * returns their ids in input order.
 */
export async function insertMemories(db: Db, rows: readonly MemoryFixture[]): Promise<string[]> {
  const ids: string[] = [];
  // Chunks keep each statement's parameter list (1536-dimension vectors) reasonably small.
  for (let i = 0; i < rows.length; i += 50) {
    const chunk = rows
      .slice(i, i + 50)
      .map((row) => ({ provenance: "user_created" as const, embeddingModel: TEST_EMBEDDER, ...row }));
    const inserted = await db.insert(memories).values(chunk).returning({ id: memories.id });
    ids.push(...inserted.map((row) => row.id));
  }
  return ids;
}
