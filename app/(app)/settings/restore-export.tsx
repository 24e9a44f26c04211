"use client";

import { ArchiveRestoreIcon } from "lucide-react";
import Link from "next/link";
import { useEffect, useMemo, useState } from "react";
import { FormAlert } from "@/app/(auth)/_components/form-parts";
import { TYPE_LABELS } from "@/components/memories/labels";
import { Button } from "@/components/ui/button";
import { importConfig } from "@/core/config";
import type { MemoryType } from "@/db/schema";
import { type ParsedLifelineExport, packRestoreBatches } from "@/lib/import/lifeline";
import { api, errorMessage } from "@/lib/ui/api";
import { plural } from "@/lib/ui/format";
import { SkippedList } from "./skipped-list";

type Counts = { wouldRestore: number; alreadyPresent: number };

/** A Lifeline export chosen in Settings → Import: what it holds, what is already here (asked of the server), and the restore. */
export function RestoreExport({ parsed }: { parsed: ParsedLifelineExport & { fileName: string } }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [preview, setPreview] = useState<Counts | null>(null);
  const [result, setResult] = useState<{ restored: number; alreadyPresent: number } | null>(null);

  const batches = useMemo(() => {
    try {
      return packRestoreBatches(parsed.memories, {
        maxBytes: importConfig.maxBatchBytes - 1024,
        maxMemories: importConfig.maxRestoreMemories,
      });
    } catch (caught) {
      return errorMessage(caught);
    }
  }, [parsed]);
  const byType = useMemo(() => {
    const counts = new Map<MemoryType, number>();
    for (const memory of parsed.memories) counts.set(memory.type, (counts.get(memory.type) ?? 0) + 1);
    return [...counts];
  }, [parsed]);
  const waiting = parsed.memories.filter((memory) => memory.status === "pending_confirmation").length;

  useEffect(() => {
    if (typeof batches === "string") return;
    let live = true;
    void (async () => {
      const total: Counts = { wouldRestore: 0, alreadyPresent: 0 };
      for (const batch of batches) {
        const counts = await api<Counts>("/api/imports/restore/preview", { json: { memories: batch } });
        total.wouldRestore += counts.wouldRestore;
        total.alreadyPresent += counts.alreadyPresent;
      }
      if (live) setPreview(total);
    })().catch((caught) => live && setError(errorMessage(caught)));
    return () => {
      live = false;
    };
  }, [batches]);

  async function restore() {
    if (typeof batches === "string") return;
    setError(null);
    const total = { restored: 0, alreadyPresent: 0 };
    try {
      for (const [index, batch] of batches.entries()) {
        setBusy(`Restoring: batch ${index + 1} of ${batches.length}…`);
        const counts = await api<typeof total>("/api/imports/restore", { json: { memories: batch } });
        total.restored += counts.restored;
        total.alreadyPresent += counts.alreadyPresent;
      }
      setResult(total);
    } catch (caught) {
      // Batches already sent stay restored; sending the file again adds only the rest.
      setResult(total.restored > 0 ? total : null);
      setError(errorMessage(caught));
    } finally {
      setBusy(null);
    }
  }

  if (typeof batches === "string") return <FormAlert>{batches}</FormAlert>;
  return (
    <div className="space-y-3 rounded-lg border p-4 text-sm" data-testid="restore-preview">
      <p>
        <span className="font-medium">Lifeline export</span>
        {parsed.exportedAt && <> of {parsed.exportedAt.slice(0, 10)}</>}:{" "}
        {plural(parsed.memories.length, "memory", "memories")} with their history.
      </p>
      <ul className="ml-5 list-disc" data-testid="restore-types">
        {byType.map(([type, count]) => (
          <li key={type}>
            {TYPE_LABELS[type]}: {count}
          </li>
        ))}
      </ul>
      {waiting > 0 && (
        <p className="text-muted-foreground">
          {plural(waiting, "memory", "memories")} waiting for your confirmation {waiting === 1 ? "stays" : "stay"}{" "}
          waiting.
        </p>
      )}
      <SkippedList skipped={parsed.skipped} testId="restore-skipped" />
      {preview ? (
        <p data-testid="restore-choice">
          {plural(preview.wouldRestore, "memory", "memories")} to restore; {preview.alreadyPresent} already here
          (restored before, or the same words), not added again.
        </p>
      ) : (
        !error && <p className="text-muted-foreground">Checking what is already here…</p>
      )}
      <p className="text-muted-foreground">
        Each memory is embedded again here and keeps its dates and history, marked as restored from this export.
      </p>
      {busy && <p role="status">{busy}</p>}
      {error && <FormAlert>{error}</FormAlert>}
      {result ? (
        <p role="status" data-testid="restore-result">
          Restored {plural(result.restored, "memory", "memories")}; {result.alreadyPresent} already here.{" "}
          <Link href="/memories" className="text-brand hover:underline">
            See your memories
          </Link>
        </p>
      ) : (
        <Button onClick={() => void restore()} disabled={busy !== null || !preview || preview.wouldRestore === 0}>
          <ArchiveRestoreIcon aria-hidden="true" />
          Restore {plural(preview?.wouldRestore ?? 0, "memory", "memories")}
        </Button>
      )}
    </div>
  );
}
