import { getMemory } from "@/db/queries/memories";
import { listMemoryEvents } from "@/db/queries/memory-events";
import { route } from "@/lib/api/route";
import { idParams } from "@/lib/validation/common";

/** GET /api/memories/:id/history → {events}, newest first; 404 not_found:memory when missing or not yours. */
export const GET = route({ params: idParams }, async ({ db, userId, params }) => {
  await getMemory(db, { userId, memoryId: params.id });
  return { events: await listMemoryEvents(db, { userId, memoryId: params.id }) };
});
