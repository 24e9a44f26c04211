import type { BadgeVariant } from "@/components/ui/badge";
import type { MemorySort } from "@/db/queries/memory-list";
import type { MemoryProvenance, MemoryStatus, MemoryType } from "@/db/schema";

export const PROVENANCE_LABELS: Record<MemoryProvenance, { label: string; hint: string; variant: BadgeVariant }> = {
  user_stated: { label: "You said", hint: "Extracted from something you said", variant: "info" },
  assistant_suggested: {
    label: "Assistant suggested",
    hint: "Came from the assistant's reply, not from you — check it",
    variant: "warning",
  },
  user_created: { label: "Added by you", hint: "You typed this memory in", variant: "success" },
};

export const STATUS_LABELS: Record<MemoryStatus, string> = {
  active: "Active",
  pending_confirmation: "Waiting for your confirmation",
  superseded: "Superseded",
  deleted: "Deleted",
};

export const TYPE_LABELS: Record<MemoryType, string> = {
  personal: "Personal",
  preference: "Preference",
  goal: "Goal",
  insight: "Insight",
  fact: "Fact",
  context: "Context",
  actionable: "Actionable",
  event: "Event",
  decision: "Decision",
};

export const SORT_LABELS: Record<MemorySort, string> = {
  relevance: "Most relevant",
  recent: "Pinned first, then most recent",
  importance: "Most important",
  used: "Most often sent",
};

/** The lists, in label order (client components must not import db/schema's values). */
export const MEMORY_TYPE_OPTIONS = Object.keys(TYPE_LABELS) as MemoryType[];
export const PROVENANCE_OPTIONS = Object.keys(PROVENANCE_LABELS) as MemoryProvenance[];
export const STATUS_OPTIONS = Object.keys(STATUS_LABELS) as MemoryStatus[];
