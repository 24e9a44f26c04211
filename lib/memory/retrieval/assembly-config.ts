/** Every number context assembly runs with; the default is core/config's, tests and previews may pass another. */
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
  /**
   * `historyTokenBudget`: tokens of conversation history; null (the default) sends the turn's
   * model's budget (core/model-capabilities.ts `historyTokenBudget`, AssembleInput), a number fixes
   * it whatever the model (the evaluation's full-context contender).
   */
  readonly prompt: { readonly historyTokenBudget: number | null };
}

export const DEFAULT_ASSEMBLY_CONFIG: AssemblyConfig = {
  retrieval: retrievalConfig,
  formatter: formatterConfig,
  prompt: { historyTokenBudget: null },
};

/**
 * The assembly numbers of a named strategy (core/config's `retrievalStrategies`): what
 * LIFELINE_RETRIEVAL_STRATEGY selects (lib/runtime.ts). The formatter and prompt numbers are shared.
 */
export function assemblyConfigFor(strategy: RetrievalStrategyName): AssemblyConfig {
  return { ...DEFAULT_ASSEMBLY_CONFIG, retrieval: retrievalStrategies[strategy] };
}

/**
 * `retrieval` with the numbers measured for `embedderId`: the similarity threshold (core/config's
 * `thresholdFor`) and, for a fusing strategy, the vector ranking's weight (`vectorWeightFor`).
 */
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
