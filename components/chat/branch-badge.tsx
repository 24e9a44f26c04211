import { MessagesSquareIcon, SparklesIcon } from "lucide-react";
import { Badge } from "@/components/ui/badge";

const BRANCHES = {
  semantic: { Icon: SparklesIcon, label: "semantic", hint: "Chosen by similarity to the message" },
  conversation: {
    Icon: MessagesSquareIcon,
    label: "conversation",
    hint: "Saved from this conversation (no similarity test)",
  },
} as const;

/**
 * How a memory reached the prompt. The two branches look different on purpose: a memory from this
 * conversation is not a similarity match and must never read like one.
 */
export function BranchBadge({ branch }: { branch: string }) {
  const known = branch === "semantic" || branch === "conversation" ? BRANCHES[branch] : null;
  if (!known) return <Badge variant="outline">{branch}</Badge>;
  return (
    <Badge variant={branch as "semantic" | "conversation"} title={known.hint}>
      <known.Icon aria-hidden="true" />
      {known.label}
    </Badge>
  );
}
