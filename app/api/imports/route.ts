import { importConfig } from "@/core/config";
import { createImport, listImports } from "@/db/queries/imports";
import { route } from "@/lib/api/route";
import { importCreateBody } from "@/lib/validation/imports";

/** GET /api/imports → {imports}: the latest `importConfig.listed` imports, newest first, each with its progress. */
export const GET = route({}, async ({ db, userId }) => ({
  imports: await listImports(db, { userId, limit: importConfig.listed }),
}));

/** POST /api/imports {source, fileName} → 201 {import}: an import waiting for its batches. */
export const POST = route({ body: importCreateBody, status: 201 }, async ({ db, userId, body }) => ({
  import: await createImport(db, { userId, ...body }),
}));
