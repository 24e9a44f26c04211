import { route } from "@/lib/api/route";
import { previewRestore } from "@/lib/memory/store/restore";
import { restoreBatchBody } from "@/lib/validation/imports";

/** POST /api/imports/restore/preview {memories} → {wouldRestore, alreadyPresent}: what the batch would add; writes nothing. */
export const POST = route({ body: restoreBatchBody }, async ({ db, userId, body }) =>
  previewRestore(db, { userId, memories: body.memories }),
);
