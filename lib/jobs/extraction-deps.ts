/** The extraction job's dependencies, built from a database, an AI registry and a clock (the app edge passes the process's: lib/runtime.ts). */
import type { Db } from "@/db/client";
import type { AiRegistry } from "@/lib/ai/registry";
import type { ExtractionDeps } from "./extraction-job";

export function extractionDeps({ db, ai, now }: { db: Db; ai: AiRegistry; now: () => Date }): ExtractionDeps {
  return {
    db,
    model: ai.getExtractionModel(),
    embed: ai.embedder.embed,
    embeddingModel: ai.embedder.model,
    now,
  };
}
