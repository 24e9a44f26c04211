import { deleteAllMemories, listMemories } from "@/db/queries/memory-list";
import { route } from "@/lib/api/route";
import { createUserMemory } from "@/lib/memory/store/memory-store";
import { processSimilarityThreshold } from "@/lib/runtime";
import { deleteAllBody, memoryCreateBody, memoryListQuery } from "@/lib/validation/memories";

/** A search by meaning leaves out memories under the similarity threshold in force and counts them in `hidden`. */
export const GET = route(
  {
    query: memoryListQuery,
    bearer: "read",
    // A search by meaning embeds the query: counted in the user's embedding limit.
    rateLimit: ({ query }) => (query.match === "semantic" && query.q ? "embed" : null),
  },
  async ({ db, ai, userId, query }) => {
    const { match, ...filters } = query;
    const semantic =
      match === "semantic" && query.q
        ? { embedding: await ai.embedText(query.q), embeddingModel: ai.embedder.model }
        : undefined;
    const minSimilarity = semantic ? processSimilarityThreshold(semantic.embeddingModel) : undefined;
    return listMemories(db, { userId, ...filters, semantic, minSimilarity });
  },
);

export const POST = route(
  { body: memoryCreateBody, status: 201, bearer: "write" },
  async ({ db, ai, userId, body }) => ({
    memory: await createUserMemory(db, { userId, ...body }, ai.embedder),
  }),
);

/** Erases memories and history and redacts derived records (docs/retrieval.md#deleting-a-memory). */
export const DELETE = route({ body: deleteAllBody }, async ({ db, userId }) => ({
  deleted: await deleteAllMemories(db, { userId }),
}));
