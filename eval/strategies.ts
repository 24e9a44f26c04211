/** The strategies an evaluation compares: core/config's `retrievalStrategies`, by name. */
import { DEFAULT_RETRIEVAL_STRATEGY, type RetrievalStrategyName, retrievalStrategies } from "@/core/config";
import { forEmbedder } from "@/lib/memory/retrieval/assembly-config";
import type { NamedStrategy } from "./run";

export const STRATEGY_NAMES = Object.keys(retrievalStrategies) as RetrievalStrategyName[];

function isStrategyName(name: string): name is RetrievalStrategyName {
  return Object.hasOwn(retrievalStrategies, name);
}

/** The named strategies (default: all), each with its threshold resolved for `embedderId`. */
export function resolveStrategies(names: readonly string[] | undefined, embedderId: string): NamedStrategy[] {
  const chosen = names?.length ? names : STRATEGY_NAMES;
  return chosen.map((name) => {
    if (!isStrategyName(name)) {
      throw new Error(`unknown strategy "${name}" (have ${STRATEGY_NAMES.join(", ")})`);
    }
    return { name, config: forEmbedder(retrievalStrategies[name], embedderId) };
  });
}

export const isDefaultStrategy = (name: string) => name === DEFAULT_RETRIEVAL_STRATEGY;
