import type { ImportSource } from "@/lib/import/types";

/**
 * What the chat offers. An imported conversation is read-only: the server refuses every turn in it
 * (lib/chat/turn.ts, 409 conflict:imported_conversation), so nothing that would start one is shown —
 * no composer, edit, regenerate or retry, and no model, mode or temperature, which only shape the next
 * turn. Its memory switch works (an exchange not yet read is skipped when it is off), and its answers,
 * which have no debug record, are inspected for their extraction.
 */
export function chatControls(conversation: { importedFrom?: ImportSource | null } | null | undefined) {
  const answerable = !conversation?.importedFrom;
  return {
    composer: answerable,
    edit: answerable,
    regenerate: answerable,
    retry: answerable,
    turnSettings: answerable,
    /** An Inspect link on an answer with an extraction and no debug record. */
    inspectExtractionOnly: !answerable,
  };
}
