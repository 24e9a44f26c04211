import { exportMemories, listActiveMemories } from "@/db/queries/memory-list";
import { route } from "@/lib/api/route";
import { LIFELINE_EXPORT_FORMAT, LIFELINE_EXPORT_VERSION } from "@/lib/import/lifeline";
import { formatHandout } from "@/lib/memory/handout";
import { memoryExportQuery } from "@/lib/validation/memories";

export const GET = route({ query: memoryExportQuery }, async ({ db, userId, query }) => {
  const date = new Date().toISOString().slice(0, 10);
  if (query.format === "text") {
    const active = await listActiveMemories(db, { userId });
    return new Response(formatHandout(active, { date }), {
      headers: {
        "content-type": "text/plain; charset=utf-8",
        "x-memory-count": String(active.length),
        "cache-control": "no-store",
      },
    });
  }
  const memories = await exportMemories(db, { userId });
  const body = JSON.stringify(
    {
      format: LIFELINE_EXPORT_FORMAT,
      version: LIFELINE_EXPORT_VERSION,
      exportedAt: new Date().toISOString(),
      memories,
    },
    null,
    2,
  );
  return new Response(body, {
    headers: {
      "content-type": "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="lifeline-memories-${date}.json"`,
      "cache-control": "no-store",
    },
  });
});
