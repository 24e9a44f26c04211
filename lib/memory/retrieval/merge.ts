/** Merge: the two branches' selections as one list, each memory once. */
import type { RetrievedMemory } from "./memory-row";

export type Branch = "semantic" | "conversation";

export interface MergedMemory extends RetrievedMemory {
  /** Every branch that selected this memory, in merge order (semantic first). */
  branches: Branch[];
}

/**
 * Semantic selections first (in rank order), then the conversation branch's; a memory both
 * branches selected keeps its first (semantic) position and records both branches.
 */
export function mergeBranches(
  semantic: readonly RetrievedMemory[],
  conversation: readonly RetrievedMemory[],
): MergedMemory[] {
  const merged = new Map<string, MergedMemory>();
  const add = ({ id, title, content, importance, createdAt, updatedAt }: RetrievedMemory, branch: Branch) => {
    const existing = merged.get(id);
    if (!existing) merged.set(id, { id, title, content, importance, createdAt, updatedAt, branches: [branch] });
    else if (!existing.branches.includes(branch)) existing.branches.push(branch);
  };
  for (const memory of semantic) add(memory, "semantic");
  for (const memory of conversation) add(memory, "conversation");
  return [...merged.values()];
}
