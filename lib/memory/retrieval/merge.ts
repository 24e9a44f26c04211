/** Merge: the branches' selections as one list, each memory once. */
import type { RetrievedMemory } from "./memory-row";

export type Branch = "pinned" | "semantic" | "conversation";

export interface MergedMemory extends RetrievedMemory {
  /** Every branch that selected this memory, in merge order (pinned, semantic, conversation). */
  branches: Branch[];
}

/**
 * Pinned selections first, then semantic ones (in rank order), then the conversation branch's; a
 * memory several branches selected keeps its first position and records every branch.
 */
export function mergeBranches(
  semantic: readonly RetrievedMemory[],
  conversation: readonly RetrievedMemory[],
  pinned: readonly RetrievedMemory[] = [],
): MergedMemory[] {
  const merged = new Map<string, MergedMemory>();
  const add = ({ id, title, content, importance, createdAt, updatedAt }: RetrievedMemory, branch: Branch) => {
    const existing = merged.get(id);
    if (!existing) merged.set(id, { id, title, content, importance, createdAt, updatedAt, branches: [branch] });
    else if (!existing.branches.includes(branch)) existing.branches.push(branch);
  };
  for (const memory of pinned) add(memory, "pinned");
  for (const memory of semantic) add(memory, "semantic");
  for (const memory of conversation) add(memory, "conversation");
  return [...merged.values()];
}
