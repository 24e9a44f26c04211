/** What the list below an import was last rendered with: each import's memories found and status. */
export type RenderedImports = ReadonlyMap<string, { memoriesFound: number; status: string }>;

export interface ImportRow {
  id: string;
  memoriesFound: number;
  status: string;
}

/**
 * Whether the memories list (rendered on the server) should be read again after a poll of the imports above it:
 * at once when an import ended, paused, resumed or vanished (undone), so the list is complete when the bar says
 * so; when it has only found more memories, at most every `everyMs`, so a long import does not re-render the list
 * on every poll. A list left behind is caught up by a later poll: what it was rendered with is compared, not the
 * previous poll.
 */
export function listNeedsRefresh(
  rendered: RenderedImports,
  now: readonly ImportRow[],
  { sinceMs, everyMs }: { sinceMs: number; everyMs: number },
): boolean {
  if (now.length !== rendered.size || now.some((row) => rendered.get(row.id)?.status !== row.status)) return true;
  const behind = now.some((row) => rendered.get(row.id)?.memoriesFound !== row.memoriesFound);
  return behind && sinceMs >= everyMs;
}

export function renderedWith(rows: readonly ImportRow[]): RenderedImports {
  return new Map(rows.map((row) => [row.id, { memoriesFound: row.memoriesFound, status: row.status }]));
}
