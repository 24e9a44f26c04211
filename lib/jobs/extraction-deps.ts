/** The job's dependencies in the app: the process database and the configured models (lib/ai/registry). */
import { getDb } from "@/db/client";
import { describeProviders, embedTexts, getExtractionModel } from "@/lib/ai/registry";
import type { ExtractionDeps } from "./extraction-job";

export async function defaultExtractionDeps(): Promise<ExtractionDeps> {
  return {
    db: await getDb(),
    model: getExtractionModel(),
    embed: embedTexts,
    embeddingModel: describeProviders().embedder,
    now: () => new Date(),
  };
}
