import { changeImportState, progressOf } from "@/db/queries/imports";
import { route } from "@/lib/api/route";
import { idParams } from "@/lib/validation/common";

/** POST /api/imports/:id/pause → {import}: its job stops after the exchange in hand (409 unless running). */
export const POST = route({ params: idParams }, async ({ db, userId, params }) => {
  const row = await changeImportState(db, { userId, importId: params.id, action: "pause", now: new Date() });
  return { import: await progressOf(db, row) };
});
