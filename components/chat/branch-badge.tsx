import { MessagesSquareIcon, PinIcon, SearchIcon, SparklesIcon } from "lucide-react";
import { Badge } from "@/components/ui/badge";

const BRANCHES = {
  pinned: {
    Icon: PinIcon,
    label: "pinned",
    hint: "Pinned by you: always in context, whatever the message (no similarity test)",
    variant: "outline",
    className: "border-brand/30 text-brand",
  },
  semantic: {
    Icon: SparklesIcon,
    label: "semantic",
    hint: "Chosen by similarity to the message",
    variant: "semantic",
    className: undefined,
  },
  conversation: {
    Icon: MessagesSquareIcon,
    label: "conversation",
    hint: "Saved from this conversation (no similarity test)",
    variant: "conversation",
    className: undefined,
  },
  tool: {
    Icon: SearchIcon,
    label: "tool",
    hint: "Looked up by the model with a memory tool (search or list) while answering",
    variant: "outline",
    className: undefined,
  },
} as const;

/**
 * How a memory reached the prompt. The branches look different on purpose: a pinned memory or one
 * from this conversation is not a similarity match and must never read like one.
 */
export function BranchBadge({ branch }: { branch: string }) {
  const known = branch in BRANCHES ? BRANCHES[branch as keyof typeof BRANCHES] : null;
  if (!known) return <Badge variant="outline">{branch}</Badge>;
  return (
    <Badge variant={known.variant} className={known.className} title={known.hint}>
      <known.Icon aria-hidden="true" />
      {known.label}
    </Badge>
  );
}
