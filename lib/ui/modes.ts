import type { ChatMode } from "@/db/schema";

/** How each chat mode is named and explained in the UI. */
export const MODE_LABELS: Record<ChatMode, { label: string; hint: string }> = {
  conversational: { label: "Conversational", hint: "A warm, natural conversation partner" },
  coaching: { label: "Coaching", hint: "Goals, next steps and gentle accountability" },
  therapeutic: { label: "Supportive", hint: "Listening first; not a therapist" },
  productivity: { label: "Productivity", hint: "Concise plans, tasks and priorities" },
  creative: { label: "Creative", hint: "Ideas, drafts and feedback" },
  agent: { label: "Gmail agent", hint: "Search, read and send email (needs Google)" },
};

/**
 * Modes offered in the chat's selector. "agent" is left out: POST /api/chat answers every mode with
 * the text model, so an agent-mode chat would claim Gmail tools it does not have.
 */
export const SELECTABLE_MODES: readonly ChatMode[] = (Object.keys(MODE_LABELS) as ChatMode[]).filter(
  (mode) => mode !== "agent",
);
