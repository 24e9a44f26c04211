import { confirmMemory } from "@/db/queries/memories";
import { route } from "@/lib/api/route";
import { idParams } from "@/lib/validation/common";

export const POST = route({ params: idParams }, async ({ db, userId, params }) => ({
  memory: await confirmMemory(db, { userId, memoryId: params.id }),
}));
