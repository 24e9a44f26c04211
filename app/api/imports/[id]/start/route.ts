import { progressOf, startImport } from "@/db/queries/imports";
import { route } from "@/lib/api/route";
import { dispatchImportAfterResponse } from "@/lib/jobs/import-runner";
import { processImportDispatcher } from "@/lib/runtime";
import { idParams } from "@/lib/validation/common";

/**
 * POST /api/imports/:id/start → {import}: no more batches; its job extracts memories from every
 * exchange, after the response. Starting it again changes nothing.
 */
export const POST = route({ params: idParams }, async ({ db, userId, params, log }) => {
  const { row, started } = await startImport(db, { userId, importId: params.id, now: new Date() });
  // Read before the hand-over, as resume does: the answer is the start's, not the job's.
  const progress = await progressOf(db, row);
  if (started) {
    dispatchImportAfterResponse(
      processImportDispatcher(),
      { importId: row.id, userId, progressAt: row.updatedAt },
      log,
    );
  }
  return { import: progress };
});
