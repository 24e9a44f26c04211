/**
 * What a server start does for jobs (instrumentation.ts → register()): with the in-process
 * runner, resume every extraction a stopped process left queued or running. With Inngest there is
 * nothing to do — Inngest keeps its own runs. Cheap when nothing is pending: one indexed query,
 * and with embedded PGlite not even that when its data directory does not exist yet (a fresh
 * install has no jobs). Runs in the background: the server does not wait for it.
 */
import { existsSync } from "node:fs";
import { logger } from "@/core/logger";
import { optionsFromEnv } from "@/db/client";
import { getInProcessRunner } from "./extraction-queue";
import { jobRunnerKind } from "./runner-kind";

export async function resumeExtractions(env: NodeJS.ProcessEnv = process.env): Promise<number> {
  if (jobRunnerKind(env) !== "in-process") return 0;
  const database = optionsFromEnv(env);
  if (database.kind === "pglite" && database.dataDir && !existsSync(database.dataDir)) return 0;
  const resumed = await getInProcessRunner().resume();
  if (resumed > 0) logger.info({ resumed }, "resumed pending memory extractions");
  return resumed;
}

/** register()'s call: never throws and never delays the start. */
export function resumeExtractionsInBackground(): void {
  void resumeExtractions().catch((error: unknown) =>
    logger.error({ err: error }, "could not resume pending memory extractions (they resume at the next start)"),
  );
}
