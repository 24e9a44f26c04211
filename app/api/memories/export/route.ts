import { exportMemories } from "@/db/queries/memory-list";
import { route } from "@/lib/api/route";

export const GET = route({}, async ({ db, userId }) => {
  const memories = await exportMemories(db, { userId });
  const body = JSON.stringify({ exportedAt: new Date().toISOString(), memories }, null, 2);
  const date = new Date().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      "content-type": "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="lifeline-memories-${date}.json"`,
      "cache-control": "no-store",
    },
  });
});
