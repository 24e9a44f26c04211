/** Every number context assembly runs with; the default is core/config's, tests and previews may pass another. */
import {
  formatterConfig,
  promptConfig,
  type RetrievalStrategyName,
  retrievalConfig,
  retrievalStrategies,
  thresholdFor,
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
  readonly prompt: { readonly historyTokenBudget: number };
}

export const DEFAULT_ASSEMBLY_CONFIG: AssemblyConfig = {
  retrieval: retrievalConfig,
  formatter: formatterConfig,
  prompt: promptConfig,
};

/**
 * The assembly numbers of a named strategy (core/config's `retrievalStrategies`): what
 * LIFELINE_RETRIEVAL_STRATEGY selects (lib/runtime.ts). The formatter and prompt numbers are shared.
 */
export function assemblyConfigFor(strategy: RetrievalStrategyName): AssemblyConfig {
  return { ...DEFAULT_ASSEMBLY_CONFIG, retrieval: retrievalStrategies[strategy] };
}

/** `retrieval` with the similarity threshold measured for `embedderId` (core/config's `thresholdFor`). */
export function forEmbedder<T extends AssemblyConfig["retrieval"] | SemanticConfig>(
  retrieval: T,
  embedderId: string,
): T {
  return { ...retrieval, similarityThreshold: thresholdFor(embedderId, retrieval) };
}
