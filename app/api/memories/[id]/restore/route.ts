import { restoreMemory } from "@/db/queries/memories";
import { route } from "@/lib/api/route";
import { idParams } from "@/lib/validation/common";

/** POST /api/memories/:id/restore → {memory} back to its status before the delete; 409 conflict:memory_not_deleted. */
export const POST = route({ params: idParams }, async ({ db, userId, params }) => ({
  memory: await restoreMemory(db, { userId, memoryId: params.id }),
}));
