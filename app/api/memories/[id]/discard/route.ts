import { discardMemory } from "@/db/queries/memories";
import { route } from "@/lib/api/route";
import { idParams } from "@/lib/validation/common";

/** POST /api/memories/:id/discard → {memory}: an assistant suggestion is dropped (restorable); 409 conflict:memory_not_pending. */
export const POST = route({ params: idParams }, async ({ db, userId, params }) => ({
  memory: await discardMemory(db, { userId, memoryId: params.id }),
}));
