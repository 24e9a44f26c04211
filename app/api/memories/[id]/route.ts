import { deleteMemory, getMemory } from "@/db/queries/memories";
import { route } from "@/lib/api/route";
import { editMemory } from "@/lib/memory/store/memory-store";
import { idParams } from "@/lib/validation/common";
import { memoryDeleteQuery, memoryPatchBody } from "@/lib/validation/memories";

/** GET /api/memories/:id → {memory} with access_count, last_accessed_at and its source ids. */
export const GET = route({ params: idParams, bearer: "read" }, async ({ db, userId, params }) => ({
  memory: await getMemory(db, { userId, memoryId: params.id }),
}));

/**
 * PATCH /api/memories/:id {content?, title?, type?, importance?, tags?, pinned?} → {memory}.
 * A new content or title is re-embedded; the edit is recorded (actor user) and sets edited_at.
 * 404 not_found:memory when missing or not yours; 409 conflict:memory_deleted for a deleted one.
 */
export const PATCH = route(
  { params: idParams, body: memoryPatchBody, bearer: "write" },
  async ({ db, ai, userId, params, body }) => ({
    memory: await editMemory(db, { userId, memoryId: params.id, patch: body }, ai.embedder),
  }),
);

/**
 * DELETE /api/memories/:id → {memory} marked deleted (never retrieved; undo with POST …/restore).
 * Debug records, extraction decisions, event reasons and MCP calls keep its text until the undo
 * window closes (`redactAt`; an undo before then restores them all), then lose it for good.
 * `?now=true` redacts at once — also for a memory already deleted whose window is open.
 */
export const DELETE = route(
  { params: idParams, query: memoryDeleteQuery, bearer: "write" },
  async ({ db, userId, params, query }) => ({
    memory: await deleteMemory(db, { userId, memoryId: params.id }, { now: query.now ?? false }),
  }),
);
