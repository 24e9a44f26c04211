import {
  formatterConfig,
  type RetrievalStrategyName,
  retrievalConfig,
  retrievalStrategies,
  thresholdFor,
  vectorWeightFor,
} from "@/core/config";
import type { FormatterSettings } from "./format";
import type { SemanticConfig } from "./retrieve";

export interface AssemblyConfig {
  readonly retrieval: SemanticConfig & {
    readonly conversationLimit: number;
    /** Pinned memories always in context; absent or 0: no pinned branch (configs stored before it). */
    readonly pinnedLimit?: number;
  };
  readonly formatter: FormatterSettings;
  /** null uses the turn's model's budget; a number fixes it whatever the model (the evaluation's full-context contender). */
  readonly prompt: { readonly historyTokenBudget: number | null };
}

export const DEFAULT_ASSEMBLY_CONFIG: AssemblyConfig = {
  retrieval: retrievalConfig,
  formatter: formatterConfig,
  prompt: { historyTokenBudget: null },
};

export function assemblyConfigFor(strategy: RetrievalStrategyName): AssemblyConfig {
  return { ...DEFAULT_ASSEMBLY_CONFIG, retrieval: retrievalStrategies[strategy] };
}

export function forEmbedder<T extends AssemblyConfig["retrieval"] | SemanticConfig>(
  retrieval: T,
  embedderId: string,
): T {
  const vectorWeight = vectorWeightFor(embedderId, retrieval);
  return {
    ...retrieval,
    similarityThreshold: thresholdFor(embedderId, retrieval),
    ...(retrieval.fusion && vectorWeight !== null ? { fusion: { ...retrieval.fusion, vectorWeight } } : {}),
  };
}
