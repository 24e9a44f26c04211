/**
 * LIFELINE_RETRIEVAL_STRATEGY, through the composition root (lib/runtime.ts), changes what
 * retrieval does — on PGlite and Postgres.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/db/client";
import { processAssemblyConfig } from "@/lib/runtime";
import { createTestDatabase, DB_KINDS } from "@/tests/db";
import { createUser, insertMemories, sparseVector, TEST_EMBEDDER } from "@/tests/fixtures/memories";
import { assembleContext } from "./assemble";

const NOW = new Date("2025-06-15T12:00:00.000Z");
const QUESTION = "Which one?";
const embed = async () => sparseVector({ 0: 1 });

/** A unit vector at `similarity` to the query's. */
const at = (similarity: number) => sparseVector({ 0: similarity, 1: Math.sqrt(1 - similarity ** 2) });

describe.each(DB_KINDS)("LIFELINE_RETRIEVAL_STRATEGY on %s", (kind) => {
  let database: Database;
  let userId = "";

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    userId = await createUser(database.db, "Strategy");
    // Weighted puts "important" first (0.3·importance outweighs 0.6·similarity's 0.05 gap); hybrid
    // puts "closest" first (its relevance is by rank, and importance weighs only 0.1); "far" is
    // below the 0.3 threshold of both, and only nearest (no threshold) takes it.
    await insertMemories(database.db, [
      { userId, content: "closest", importance: 0.5, embedding: at(0.95), updatedAt: NOW },
      { userId, content: "important", importance: 0.8, embedding: at(0.9), updatedAt: NOW },
      { userId, content: "far", importance: 0.5, embedding: at(0.2), updatedAt: NOW },
    ]);
  });
  afterAll(async () => {
    await database?.close();
  });

  async function retrieveWith(env: Record<string, string>) {
    const { trace } = await assembleContext(database.db, {
      userId,
      message: QUESTION,
      history: [],
      mode: "conversational",
      memoryEnabled: true,
      embed,
      embeddingModel: TEST_EMBEDDER,
      now: NOW,
      countAccess: false,
      config: processAssemblyConfig(env),
    });
    const semantic = trace.candidates.filter((c) => c.branch === "semantic");
    return {
      strategy: trace.config.retrieval.strategy,
      order: semantic.filter((c) => c.fate !== "below_threshold").map((c) => c.content),
      below: semantic.filter((c) => c.fate === "below_threshold").map((c) => c.content),
    };
  }

  it("hybrid by default; weighted and nearest when set, each ranking differently", async () => {
    expect(await retrieveWith({})).toEqual({ strategy: "hybrid", order: ["closest", "important"], below: ["far"] });
    expect(await retrieveWith({ LIFELINE_RETRIEVAL_STRATEGY: "hybrid" })).toMatchObject({ strategy: "hybrid" });
    expect(await retrieveWith({ LIFELINE_RETRIEVAL_STRATEGY: "weighted" })).toEqual({
      strategy: "weighted",
      order: ["important", "closest"],
      below: ["far"],
    });
    expect(await retrieveWith({ LIFELINE_RETRIEVAL_STRATEGY: "nearest" })).toEqual({
      strategy: "nearest",
      order: ["closest", "important", "far"],
      below: [],
    });
  });

  it("a malformed setting is refused, naming the variable", () => {
    expect(() => processAssemblyConfig({ LIFELINE_RETRIEVAL_STRATEGY: "smart" })).toThrow(
      /LIFELINE_RETRIEVAL_STRATEGY must be one of nearest, weighted, hybrid/,
    );
  });
});
