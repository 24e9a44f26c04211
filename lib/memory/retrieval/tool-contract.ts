/**
 * The memory tools' contract with any model: their names and what a call returns to the model
 * (lib/memory/retrieval/tools.ts implements them; the offline model reads their results).
 */
export const SEARCH_MEMORIES = "search_memories";
export const LIST_MEMORIES = "list_memories";
export type MemoryToolName = typeof SEARCH_MEMORIES | typeof LIST_MEMORIES;

export interface MemoryToolOutput {
  memories: { id: string; title: string | null; content: string; type?: string }[];
  /** A one-line summary the model can quote ("4 memories of type goal"). */
  note: string;
}
