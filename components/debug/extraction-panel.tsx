import Link from "next/link";
import { DateTime, LocalDates } from "@/components/dates";
import { Badge, type BadgeVariant } from "@/components/ui/badge";
import type { ExtractionStatus } from "@/db/schema";
import type { ExtractionView } from "@/lib/jobs/extraction-view";
import { type DateContext, plural } from "@/lib/ui/format";
import type { Jsonify } from "@/lib/ui/json";
import { RetryExtractionButton } from "./retry-extraction-button";

const STATUS: Record<ExtractionStatus, { label: string; variant: BadgeVariant }> = {
  queued: { label: "queued", variant: "info" },
  running: { label: "running", variant: "info" },
  succeeded: { label: "succeeded", variant: "success" },
  failed: { label: "failed", variant: "danger" },
  skipped: { label: "skipped (memory off)", variant: "outline" },
};

const ACTION_VARIANTS: Record<string, BadgeVariant> = {
  add: "success",
  update: "info",
  supersede: "warning",
  skip: "outline",
};

export function ExtractionPanel({
  extraction,
  messageId,
  dates,
}: {
  extraction: Jsonify<ExtractionView> | null;
  messageId: string;
  /** The user's locale and time zone: the stored memories read as on their cards. */
  dates: DateContext;
}) {
  if (!extraction) {
    return (
      <p className="text-sm text-muted-foreground">
        No extraction for this answer: failed answers are not read for memories.
      </p>
    );
  }
  const status = STATUS[extraction.status];
  return (
    <div className="space-y-4 text-sm">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <Badge variant={status.variant} data-testid="extraction-state">
          {status.label}
        </Badge>
        <span className="text-muted-foreground">
          {plural(extraction.attempts, "attempt")} of {extraction.maxAttempts}
          {extraction.runner ? ` · ${extraction.runner} runner` : ""}
          {extraction.finishedAt ? (
            <>
              {" "}
              · finished <DateTime value={extraction.finishedAt} dates={dates} />
            </>
          ) : (
            ""
          )}
        </span>
        {extraction.status === "failed" && <RetryExtractionButton messageId={messageId} />}
      </div>
      {extraction.lastError && (
        <p
          role="alert"
          className="rounded-lg border border-destructive/30 bg-red-50 px-3 py-2 text-red-900 dark:bg-red-950/40 dark:text-red-200"
        >
          Last error: {extraction.lastError}
        </p>
      )}
      {extraction.status === "succeeded" && extraction.memories.length === 0 && (
        <p className="text-muted-foreground">Nothing in this exchange was worth remembering.</p>
      )}
      {extraction.memories.length > 0 && (
        <div>
          <h3 className="mb-2 text-xs font-medium tracking-wide text-muted-foreground uppercase">
            Memories it produced
          </h3>
          <ul className="space-y-2">
            {extraction.memories.map((memory) =>
              memory.deleted ? (
                <li
                  key={memory.id}
                  className="rounded-lg border border-dashed px-3 py-2 text-muted-foreground"
                  data-testid="produced-memory"
                >
                  <Badge variant="outline">deleted memory</Badge> <span>Deleted since.</span>
                </li>
              ) : (
                <li key={memory.id} className="rounded-lg border bg-surface px-3 py-2">
                  <Link
                    href={`/memories?id=${memory.id}`}
                    className="font-medium hover:underline"
                    data-testid="produced-memory"
                  >
                    <LocalDates text={memory.title ?? memory.content} dates={dates} />
                  </Link>
                  <p className="text-muted-foreground">
                    <LocalDates text={memory.content} dates={dates} />
                  </p>
                  <div className="mt-1 flex gap-1.5">
                    <Badge variant="outline">{memory.type}</Badge>
                    <Badge variant="outline">{memory.status.replace("_", " ")}</Badge>
                  </div>
                </li>
              ),
            )}
          </ul>
        </div>
      )}
      {extraction.decisions.length > 0 && (
        <div>
          <h3 className="mb-2 text-xs font-medium tracking-wide text-muted-foreground uppercase">Decisions</h3>
          <ul className="space-y-2">
            {extraction.decisions.map((decision, index) => (
              <li
                // biome-ignore lint/suspicious/noArrayIndexKey: decisions are stored once, in order
                key={index}
                className="flex flex-wrap items-baseline gap-2"
              >
                <Badge variant={ACTION_VARIANTS[decision.action] ?? "outline"}>{decision.action}</Badge>
                {decision.redacted && <Badge variant="outline">deleted memory</Badge>}
                <span className="font-medium">{decision.candidate.title ?? decision.candidate.content}</span>
                <span className="text-muted-foreground">— {decision.reason}</span>
                {decision.override && (
                  <span className="text-xs text-amber-700 dark:text-amber-300">({decision.override})</span>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
