/** Every number context assembly runs with; the default is lib/config's, tests and previews may pass another. */
import { formatterConfig, promptConfig, retrievalConfig } from "@/lib/config";
import type { FormatterSettings } from "./format";
import type { SemanticConfig } from "./retrieve";

export interface AssemblyConfig {
  readonly retrieval: SemanticConfig & { readonly conversationLimit: number };
  readonly formatter: FormatterSettings;
  readonly prompt: { readonly historyTokenBudget: number };
}

export const DEFAULT_ASSEMBLY_CONFIG: AssemblyConfig = {
  retrieval: retrievalConfig,
  formatter: formatterConfig,
  prompt: promptConfig,
};
