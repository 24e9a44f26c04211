/**
 * Why a memory reached an answer, in the user's words: the chat names the retrieval branches so
 * (the debug view keeps the technical names).
 */
const REASONS: Record<string, string> = {
  semantic: "matched your message",
  conversation: "from this chat",
  pinned: "pinned",
  tool: "looked up",
};

const list = new Intl.ListFormat("en", { style: "long", type: "conjunction" });

/** One branch's plain name; a branch this build does not know keeps its own name. */
export function memoryReason(branch: string): string {
  return REASONS[branch] ?? branch;
}

/** Every branch that chose a memory, as one phrase: "pinned and looked up". */
export function memoryReasons(branches: readonly string[]): string {
  return list.format([...new Set(branches.map(memoryReason))]);
}
