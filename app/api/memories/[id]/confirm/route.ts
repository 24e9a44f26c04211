import { confirmMemory } from "@/db/queries/memories";
import { route } from "@/lib/api/route";
import { idParams } from "@/lib/validation/common";

/** POST /api/memories/:id/confirm → {memory}: an assistant suggestion becomes active; 409 conflict:memory_not_pending. */
export const POST = route({ params: idParams }, async ({ db, userId, params }) => ({
  memory: await confirmMemory(db, { userId, memoryId: params.id }),
}));
