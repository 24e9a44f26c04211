import { deleteMemory, getMemory } from "@/db/queries/memories";
import { route } from "@/lib/api/route";
import { editMemory } from "@/lib/memory/store/memory-store";
import { idParams } from "@/lib/validation/common";
import { memoryDeleteQuery, memoryPatchBody } from "@/lib/validation/memories";

export const GET = route({ params: idParams, bearer: "read" }, async ({ db, userId, params }) => ({
  memory: await getMemory(db, { userId, memoryId: params.id }),
}));

/** A new content or title is re-embedded; 409 conflict:memory_deleted for a deleted memory. */
export const PATCH = route(
  { params: idParams, body: memoryPatchBody, bearer: "write" },
  async ({ db, ai, userId, params, body }) => ({
    memory: await editMemory(db, { userId, memoryId: params.id, patch: body }, ai.embedder),
  }),
);

/** Derived records keep the text until the undo window closes; `?now=true` redacts at once. */
export const DELETE = route(
  { params: idParams, query: memoryDeleteQuery, bearer: "write" },
  async ({ db, userId, params, query }) => ({
    memory: await deleteMemory(db, { userId, memoryId: params.id }, { now: query.now ?? false }),
  }),
);
