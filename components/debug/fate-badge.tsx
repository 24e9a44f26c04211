import { Badge, type BadgeVariant } from "@/components/ui/badge";
import type { ToolMemoryFate } from "@/lib/memory/retrieval/tools";
import type { CandidateFate } from "@/lib/memory/retrieval/trace";

const FATES: Record<CandidateFate | ToolMemoryFate, { label: string; variant: BadgeVariant; hint: string }> = {
  returned: { label: "returned", variant: "success", hint: "The memory tool returned it to the model" },
  included: { label: "sent", variant: "success", hint: "Its line was in the prompt the model received" },
  dropped_limit: {
    label: "over limit",
    variant: "outline",
    hint: "Above the similarity threshold, but ranked below the semantic limit",
  },
  dropped_dedup: {
    label: "duplicate",
    variant: "outline",
    hint: "The conversation branch returned it too, but the semantic branch had already selected it",
  },
  dropped_formatter_cap: {
    label: "over line cap",
    variant: "warning",
    hint: "Selected by a branch, but past the formatter's maximum number of lines",
  },
  below_threshold: {
    label: "below threshold",
    variant: "outline",
    hint: "Among the most similar memories, but its similarity is below the threshold, so it was never ranked",
  },
};

export function FateBadge({ fate }: { fate: CandidateFate | ToolMemoryFate }) {
  // A stored trace may carry a fate this build does not know.
  const { label, variant, hint } = FATES[fate] ?? { label: fate, variant: "outline", hint: "" };
  return (
    <Badge variant={variant} title={hint}>
      {label}
    </Badge>
  );
}
