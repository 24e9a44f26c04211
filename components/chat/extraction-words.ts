import { plural } from "@/lib/ui/format";

/**
 * What an answer's finished extraction did, in the words under the answer: a memory it created is saved, one it
 * changed (consolidation's update) is updated, so an answer that only refined what was remembered does not claim
 * a new memory. Superseding creates the replacing memory, so it counts as saved.
 */
export function savedWords({ memories, updated }: { memories: number; updated: number }): string {
  if (memories === 0) return "Nothing to remember";
  const saved = memories - updated;
  if (saved === 0) return `Updated ${plural(updated, "memory", "memories")}`;
  return updated === 0
    ? `Saved ${plural(saved, "memory", "memories")}`
    : `Saved ${plural(saved, "memory", "memories")}, updated ${updated}`;
}
