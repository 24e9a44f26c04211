/**
 * What an import's progress says, on Settings → Import and the import's page: each number named for what it
 * counts. An exchange is "read" only when its extraction succeeded; one skipped (memory was off for its chat)
 * or failed is counted apart. The memories are those its exchanges added or updated, each once.
 */
import type { ImportStatus } from "@/db/schema";

export interface ProgressCounts {
  conversations: number;
  exchanges: { total: number; done: number; failed: number; skipped: number };
  memoriesFound: number;
}

const count = (n: number) => n.toLocaleString("en-US");

export function progressWords({ conversations, exchanges, memoriesFound }: ProgressCounts): string {
  const read = exchanges.done - exchanges.skipped;
  return [
    `${count(read)} of ${count(exchanges.total)} exchanges read, from ${count(conversations)} ${conversations === 1 ? "conversation" : "conversations"}`,
    `${count(memoriesFound)} ${memoriesFound === 1 ? "memory" : "memories"} added or updated`,
    ...(exchanges.skipped > 0 ? [`${count(exchanges.skipped)} skipped (memory was off for the chat)`] : []),
    `${count(exchanges.failed)} failed`,
  ].join(" · ");
}

/** An import's status as a list names it. */
export const IMPORT_STATUS_WORDS: Record<ImportStatus, string> = {
  receiving: "not started",
  running: "importing",
  paused: "paused",
  cancelled: "cancelled",
  done: "done",
};

/** An import's status as a heading says it, before its file's name. */
export const IMPORT_HEADINGS: Record<ImportStatus, string> = {
  receiving: "Not started:",
  running: "Importing",
  paused: "Paused importing",
  cancelled: "Cancelled importing",
  done: "Imported",
};
