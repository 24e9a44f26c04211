"use client";

import Link from "next/link";
import { DateTime } from "@/components/dates";
import { useDates } from "@/components/dates-provider";
import type { ImportProgressJson } from "@/components/import-progress";
import { Badge, type BadgeVariant } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { importConfig } from "@/core/config";
import type { ImportStatus } from "@/db/schema";
import { IMPORT_STATUS_WORDS, progressWords } from "@/lib/import/progress-words";
import { IMPORT_SOURCE_LABELS } from "@/lib/import/types";

const VARIANTS: Record<ImportStatus, BadgeVariant> = {
  receiving: "outline",
  running: "info",
  paused: "warning",
  cancelled: "outline",
  done: "success",
};

/**
 * Every import of the user's that GET /api/imports lists (the latest importConfig.listed, newest first), each
 * leading to its page; "Show progress" puts one in the panel above, with its pause, cancel, retry and undo.
 */
export function ImportList({
  imports,
  shownId,
  onShow,
}: {
  imports: ImportProgressJson[];
  shownId: string | null;
  onShow: (row: ImportProgressJson) => void;
}) {
  const dates = useDates();
  // A full list may have older imports beyond it: say so rather than call it all of them.
  const heading =
    imports.length < importConfig.listed
      ? "Your imports, newest first"
      : `Your ${importConfig.listed} most recent imports, newest first`;
  return (
    <section aria-labelledby="import-list-heading" className="space-y-2" data-testid="import-list">
      <h3 id="import-list-heading" className="text-sm font-medium">
        {heading}
      </h3>
      <ol className="divide-y rounded-lg border text-sm">
        {imports.map((row) => (
          <li key={row.id} className="space-y-1 p-3" data-testid="import-list-item" data-status={row.status}>
            <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
              <Link
                href={`/settings/imports/${row.id}`}
                className="font-medium text-brand hover:underline"
                data-testid="import-list-link"
              >
                {row.fileName}
              </Link>
              <span className="text-muted-foreground">
                {IMPORT_SOURCE_LABELS[row.source]} · <DateTime value={row.createdAt} dates={dates} />
              </span>
              <Badge variant={VARIANTS[row.status]}>{IMPORT_STATUS_WORDS[row.status]}</Badge>
              {row.id !== shownId && (
                <Button size="xs" variant="ghost" className="ml-auto" onClick={() => onShow(row)}>
                  Show progress
                </Button>
              )}
            </div>
            <p className="text-muted-foreground" data-testid="import-list-counts">
              {progressWords(row)}
            </p>
          </li>
        ))}
      </ol>
    </section>
  );
}
