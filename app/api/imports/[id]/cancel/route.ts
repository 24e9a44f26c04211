import { changeImportState, progressOf } from "@/db/queries/imports";
import { route } from "@/lib/api/route";
import { idParams } from "@/lib/validation/common";

/**
 * POST /api/imports/:id/cancel → {import}: the exchanges not yet read never are; what was read
 * stays (its conversations and memories). 409 once done or cancelled.
 */
export const POST = route({ params: idParams }, async ({ db, userId, params }) => {
  const row = await changeImportState(db, { userId, importId: params.id, action: "cancel", now: new Date() });
  return { import: await progressOf(db, row) };
});
