"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useCallback, useRef, useState } from "react";
import { ImportProgressBar, type ImportProgressJson } from "@/components/import-progress";
import { importConfig } from "@/core/config";
import { ApiError, api } from "@/lib/ui/api";
import { nextListRender, renderedWith } from "@/lib/ui/list-refresh";
import { useVisibleTimeout } from "@/lib/ui/use-visible-timeout";

/**
 * The user's imports still under way when the page was rendered, read again while they run, so the memories
 * arriving here have their source in sight. Pausing, cancelling and undoing stay on Settings → Import.
 */
export function ImportsUnderWay({ initial }: { initial: ImportProgressJson[] }) {
  const [shown, setShown] = useState(initial);
  const router = useRouter();
  // What the server-rendered list below was last read with, and when.
  const rendered = useRef(renderedWith(initial, Date.now()));

  // A paused import is read too: it may be resumed from Settings in another tab.
  const polling = shown.some((row) => row.status === "running" || row.status === "paused");
  const readAgain = useCallback(async () => {
    const next = await Promise.all(
      shown.map(async (row) => {
        if (row.status !== "running" && row.status !== "paused") return row;
        try {
          return (await api<{ import: ImportProgressJson }>(`/api/imports/${row.id}`)).import;
        } catch (error) {
          // Undone meanwhile (in another tab): nothing left to show. Any other failure: read again next time.
          return error instanceof ApiError && error.status === 404 ? null : row;
        }
      }),
    );
    const kept = next.filter((row) => row !== null);
    setShown(kept);
    const render = nextListRender(rendered.current, kept, { atMs: Date.now(), everyMs: importConfig.listRefreshMs });
    if (render) {
      rendered.current = render;
      router.refresh();
    }
  }, [shown, router]);
  useVisibleTimeout(polling ? readAgain : null, importConfig.pollMs);

  if (shown.length === 0) return null;
  return (
    <section aria-label="Imports" className="space-y-2" data-testid="memories-imports">
      {shown.map((row) => (
        <div
          key={row.id}
          className="space-y-2 rounded-xl border p-4 text-sm"
          data-testid="memories-import"
          data-status={row.status}
        >
          <ImportProgressBar progress={row} />
          <p className="flex flex-wrap gap-x-4 gap-y-1">
            <Link href={`/settings/imports/${row.id}`} className="text-brand hover:underline">
              What was learned from each exchange
            </Link>
            <Link href="/settings#import" className="text-brand hover:underline">
              Pause, cancel or undo it in Settings
            </Link>
          </p>
        </div>
      ))}
    </section>
  );
}
