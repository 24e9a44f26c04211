import { changeImportState, progressOf } from "@/db/queries/imports";
import { route } from "@/lib/api/route";
import { dispatchImportAfterResponse } from "@/lib/jobs/import-runner";
import { processImportDispatcher } from "@/lib/runtime";
import { idParams } from "@/lib/validation/common";

/** POST /api/imports/:id/resume → {import}: a paused import's job goes on where it stopped (409 unless paused). */
export const POST = route({ params: idParams }, async ({ db, userId, params, log }) => {
  const row = await changeImportState(db, { userId, importId: params.id, action: "resume", now: new Date() });
  // Read before the hand-over: a job with little left can finish before a later read, and the answer is the resume's.
  const progress = await progressOf(db, row);
  dispatchImportAfterResponse(processImportDispatcher(), { importId: row.id, userId, progressAt: row.updatedAt }, log);
  return { import: progress };
});
