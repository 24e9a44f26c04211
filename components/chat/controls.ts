import type { ImportSource } from "@/lib/import/types";

/**
 * What the chat offers. An imported conversation is read-only: the server refuses every turn in it, and
 * every rating and note on its messages (409 conflict:imported_conversation, db/queries/imports.ts), so
 * nothing that would ask for one is shown — no composer, edit, regenerate or retry, no model, mode or
 * temperature (which only shape the next turn), and no thumbs or notes: its answers are another
 * assistant's, and rating them would read as feedback on Lifeline's. Its memory switch works (an exchange
 * not yet read is skipped when it is off), and its answers, which have no debug record, are inspected
 * for their extraction.
 */
export function chatControls(conversation: { importedFrom?: ImportSource | null } | null | undefined) {
  const answerable = !conversation?.importedFrom;
  return {
    composer: answerable,
    edit: answerable,
    regenerate: answerable,
    retry: answerable,
    turnSettings: answerable,
    /** Rating an answer, and notes on any message. */
    feedback: answerable,
    /** An Inspect link on an answer with an extraction and no debug record. */
    inspectExtractionOnly: !answerable,
  };
}
