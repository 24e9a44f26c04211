import type { ChatMode } from "@/db/schema";

/** How each chat mode is named and explained in the UI. */
export const MODE_LABELS: Record<ChatMode, { label: string; hint: string }> = {
  conversational: { label: "Conversational", hint: "A warm, natural conversation partner" },
  coaching: { label: "Coaching", hint: "Goals, next steps and gentle accountability" },
  therapeutic: { label: "Supportive", hint: "Listening first; not a therapist" },
  productivity: { label: "Productivity", hint: "Concise plans, tasks and priorities" },
  creative: { label: "Creative", hint: "Ideas, drafts and feedback" },
  agent: {
    label: "Gmail agent",
    hint: "Searches, reads and drafts email in your Gmail (or the demo mailbox); sends only what you approve",
  },
};

/** Modes offered in the chat's selector, in this order. */
export const SELECTABLE_MODES = Object.keys(MODE_LABELS) as ChatMode[];
