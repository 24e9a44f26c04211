import { getMemory } from "@/db/queries/memories";
import { listMemoryEvents } from "@/db/queries/memory-events";
import { route } from "@/lib/api/route";
import { idParams } from "@/lib/validation/common";

export const GET = route({ params: idParams }, async ({ db, userId, params }) => {
  await getMemory(db, { userId, memoryId: params.id });
  return { events: await listMemoryEvents(db, { userId, memoryId: params.id }) };
});
