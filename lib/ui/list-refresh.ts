import type { ImportProgress } from "@/db/queries/imports";

type ImportRow = Pick<ImportProgress, "id" | "memoriesFound" | "status">;

/** What the memories list below the imports was last rendered with (each import's count and status), and when. */
export interface ListRender {
  imports: ReadonlyMap<string, Pick<ImportRow, "memoriesFound" | "status">>;
  atMs: number;
}

export function renderedWith(rows: readonly ImportRow[], atMs: number): ListRender {
  return {
    imports: new Map(rows.map((row) => [row.id, { memoriesFound: row.memoriesFound, status: row.status }])),
    atMs,
  };
}

/**
 * After a poll of the imports, the render the server-rendered list should be read again for, or null: at once when
 * an import ended, paused, resumed or vanished (undone), so the list is complete when the bar says so; when it has
 * only found more memories, at most every `everyMs`, so a long import does not re-render the list on every poll.
 * It compares with what the list was last rendered with, not with the previous poll, so a list the interval left
 * behind catches up on a later poll.
 */
export function nextListRender(
  last: ListRender,
  now: readonly ImportRow[],
  { atMs, everyMs }: { atMs: number; everyMs: number },
): ListRender | null {
  const changedStatus =
    now.length !== last.imports.size || now.some((row) => last.imports.get(row.id)?.status !== row.status);
  const behind = now.some((row) => last.imports.get(row.id)?.memoriesFound !== row.memoriesFound);
  return changedStatus || (behind && atMs - last.atMs >= everyMs) ? renderedWith(now, atMs) : null;
}
