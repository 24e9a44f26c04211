import type { ImportProgress } from "@/db/queries/imports";
import { IMPORT_HEADINGS, type ProgressCounts, progressWords } from "@/lib/import/progress-words";
import { IMPORT_SOURCE_LABELS } from "@/lib/import/types";

/** An import's progress as JSON brings it (its dates as strings). */
export type ImportProgressJson = Omit<ImportProgress, "createdAt" | "startedAt" | "finishedAt"> & { createdAt: string };

/** An import's heading, its bar (exchanges finished of all) and its counts in the words of progressWords. */
export function ImportProgressBar({
  progress,
}: {
  progress: ProgressCounts & Pick<ImportProgress, "status" | "fileName" | "source">;
}) {
  const { total, done, failed } = progress.exchanges;
  const finished = done + failed;
  const percent = total === 0 ? 100 : Math.round((finished / total) * 100);
  return (
    <>
      <p className="font-medium">
        {IMPORT_HEADINGS[progress.status]} {progress.fileName} ({IMPORT_SOURCE_LABELS[progress.source]})
      </p>
      <div
        role="progressbar"
        aria-label="Import progress"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={finished}
        className="h-2 w-full overflow-hidden rounded-full bg-muted"
      >
        <div className="h-full bg-brand transition-all" style={{ width: `${percent}%` }} />
      </div>
      <p data-testid="import-counts">{progressWords(progress)}</p>
    </>
  );
}
