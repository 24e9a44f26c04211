import type { SkipCount } from "@/lib/import/types";

/** What a file's preview leaves out, counted by reason; nothing when nothing is left out. */
export function SkippedList({ skipped, testId }: { skipped: readonly SkipCount[]; testId: string }) {
  if (skipped.length === 0) return null;
  return (
    <div>
      <p className="text-muted-foreground">Left out:</p>
      <ul className="ml-5 list-disc text-muted-foreground" data-testid={testId}>
        {skipped.map((skip) => (
          <li key={skip.reason}>
            {skip.reason}: {skip.count}
          </li>
        ))}
      </ul>
    </div>
  );
}
