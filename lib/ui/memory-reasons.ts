const REASONS: Record<string, string> = {
  semantic: "matched your message",
  conversation: "from this chat",
  pinned: "pinned",
  tool: "looked up",
};

const list = new Intl.ListFormat("en", { style: "long", type: "conjunction" });

/** A branch this build does not know keeps its own name. */
export function memoryReason(branch: string): string {
  return REASONS[branch] ?? branch;
}

/** Every branch that chose a memory, as one phrase: "pinned and looked up". */
export function memoryReasons(branches: readonly string[]): string {
  return list.format([...new Set(branches.map(memoryReason))]);
}

export type Reach = "matched" | "looked_up" | "at_hand";

export const REACH_LABELS: Record<Reach, string> = {
  matched: "Matched this message",
  looked_up: "Looked up by the model",
  at_hand: "At hand: pinned or from this chat",
};

/** Whether the model made use of them is not known, so it is not said. */
export function sentSummary(memories: readonly { reach: Reach }[]): string {
  if (memories.length === 0) return "No memories sent";
  return `Sent ${memories.length} ${memories.length === 1 ? "memory" : "memories"}: ${sentBreakdown(memories)}`;
}

/** Why the sent memories were sent, counted: "none matched this message, 4 at hand". */
export function sentBreakdown(memories: readonly { reach: Reach }[]): string {
  const count = (reach: Reach) => memories.filter((memory) => memory.reach === reach).length;
  const matched = count("matched");
  const lookedUp = count("looked_up");
  const atHand = count("at_hand");
  const parts = [
    (matched > 0 || lookedUp === 0) && `${matched || "none"} matched this message`,
    lookedUp > 0 && `${lookedUp} looked up by the model`,
    atHand > 0 && `${atHand} at hand`,
  ].filter(Boolean);
  return parts.join(", ");
}
