"use client";

import { UploadIcon } from "lucide-react";
import Link from "next/link";
import { useCallback, useEffect, useId, useMemo, useState } from "react";
import { FormAlert } from "@/app/(auth)/_components/form-parts";
import { ImportProgressBar, type ImportProgressJson } from "@/components/import-progress";
import { Button } from "@/components/ui/button";
import { Input, Label } from "@/components/ui/input";
import { useHydrated } from "@/components/use-hydrated";
import { importConfig } from "@/core/config";
import type { UndoneImport } from "@/db/queries/import-undo";
import { packBatches } from "@/lib/import/batches";
import type { ParsedLifelineExport } from "@/lib/import/lifeline";
import { readImportFile } from "@/lib/import/read-export";
import { inDateRange, summarize } from "@/lib/import/summary";
import { IMPORT_SOURCE_LABELS, type ParsedExport } from "@/lib/import/types";
import { api, errorMessage } from "@/lib/ui/api";
import { plural } from "@/lib/ui/format";
import { useVisibleTimeout } from "@/lib/ui/use-visible-timeout";
import { ImportList } from "./import-list";
import { RestoreExport } from "./restore-export";
import { SkippedList } from "./skipped-list";

/** The browser parses the export with the same code the tests read fixtures with; progress is read from the server, so it survives a reload. */
export function ImportHistory() {
  const fileId = useId();
  const [parsed, setParsed] = useState<(ParsedExport & { fileName: string }) | null>(null);
  const [restoring, setRestoring] = useState<(ParsedLifelineExport & { fileName: string }) | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const hydrated = useHydrated();
  const [range, setRange] = useState<{ from: string; to: string }>({ from: "", to: "" });
  const [progress, setProgress] = useState<ImportProgressJson | null>(null);
  /** The latest importConfig.listed imports, newest first, as GET /api/imports answers. */
  const [listed, setListed] = useState<ImportProgressJson[]>([]);
  const [undone, setUndone] = useState<UndoneImport | null>(null);
  const [keepConversations, setKeepConversations] = useState(true);

  const refresh = useCallback(async (importId?: string) => {
    if (importId) {
      const { import: one } = await api<{ import: ImportProgressJson }>(`/api/imports/${importId}`);
      setProgress(one);
      setListed((rows) => rows.map((row) => (row.id === one.id ? one : row)));
      return;
    }
    const { imports } = await api<{ imports: ImportProgressJson[] }>("/api/imports");
    setListed(imports);
    setProgress(imports.find((row) => row.status !== "receiving") ?? null);
  }, []);

  useEffect(() => {
    void refresh().catch(() => {});
  }, [refresh]);

  // Polled while its job runs, and while an exchange retried after it finished is read again.
  const readProgress = useMemo(() => {
    const { total = 0, done = 0, failed = 0 } = progress?.exchanges ?? {};
    const retrying = progress?.status === "done" && done + failed < total;
    if (progress?.status !== "running" && !retrying) return null;
    return () => void refresh(progress.id).catch(() => {});
  }, [progress, refresh]);
  useVisibleTimeout(readProgress, importConfig.pollMs);

  const chosen = useMemo(
    () =>
      parsed ? inDateRange(parsed.conversations, { from: range.from || undefined, to: range.to || undefined }) : [],
    [parsed, range],
  );
  const summary = useMemo(() => summarize(chosen), [chosen]);
  const whole = useMemo(() => (parsed ? summarize(parsed.conversations) : null), [parsed]);

  async function choose(file: File | undefined) {
    setError(null);
    setParsed(null);
    setRestoring(null);
    if (!file) return;
    setBusy("Reading the export…");
    try {
      const bytes = new Uint8Array(await file.arrayBuffer());
      const read = readImportFile(bytes);
      if (read.kind === "lifeline") {
        setRestoring({ ...read.parsed, fileName: file.name });
        return;
      }
      setParsed({ ...read.parsed, fileName: file.name });
      setRange({ from: "", to: "" });
      setKeepConversations(true);
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setBusy(null);
    }
  }

  async function start() {
    if (!parsed || chosen.length === 0) return;
    setError(null);
    try {
      const { import: created } = await api<{ import: { id: string } }>("/api/imports", {
        json: { source: parsed.source, fileName: parsed.fileName.slice(0, 255), keepConversations },
      });
      const batches = packBatches(chosen, {
        maxBytes: importConfig.maxBatchBytes - 1024,
        maxConversations: importConfig.maxBatchConversations,
      });
      for (const [index, batch] of batches.entries()) {
        setBusy(`Sending conversations: batch ${index + 1} of ${batches.length}…`);
        await api(`/api/imports/${created.id}/conversations`, { json: { conversations: batch } });
      }
      const { import: started } = await api<{ import: ImportProgressJson }>(`/api/imports/${created.id}/start`, {
        method: "POST",
      });
      setProgress(started);
      setListed((rows) => [started, ...rows.filter((row) => row.id !== started.id)].slice(0, importConfig.listed));
      setParsed(null);
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setBusy(null);
    }
  }

  return (
    <div className="space-y-4">
      <div className="space-y-2">
        <Label htmlFor={fileId}>
          ChatGPT or Claude export (.zip or conversations.json), or a Lifeline export (.json)
        </Label>
        <Input
          id={fileId}
          type="file"
          accept=".zip,.json,application/zip,application/json"
          data-testid="import-file"
          // Until hydrated a chosen file would reach no handler and nothing would happen.
          disabled={!hydrated || busy !== null}
          onChange={(event) => void choose(event.currentTarget.files?.[0])}
        />
        <p className="text-xs text-muted-foreground">
          The file is read in this browser; only the conversations you choose are sent. A file saved from Memories →
          Export JSON restores those memories here.
        </p>
      </div>
      {busy && (
        <p className="text-sm text-muted-foreground" role="status">
          {busy}
        </p>
      )}
      {error && <FormAlert>{error}</FormAlert>}
      {parsed && whole && (
        <div className="space-y-3 rounded-lg border p-4 text-sm" data-testid="import-preview">
          <p>
            <span className="font-medium">{IMPORT_SOURCE_LABELS[parsed.source]} export</span>: {whole.conversations}{" "}
            conversations, {whole.messages} messages
            {whole.from && whole.to && (
              <>
                , from {whole.from.slice(0, 10)} to {whole.to.slice(0, 10)}
              </>
            )}
            .
          </p>
          <SkippedList skipped={parsed.skipped} testId="import-skipped" />
          <div className="flex flex-wrap items-end gap-3">
            <div className="space-y-1">
              <Label htmlFor={`${fileId}-from`}>From</Label>
              <Input
                id={`${fileId}-from`}
                type="date"
                value={range.from}
                onChange={(event) => setRange((r) => ({ ...r, from: event.currentTarget.value }))}
              />
            </div>
            <div className="space-y-1">
              <Label htmlFor={`${fileId}-to`}>To</Label>
              <Input
                id={`${fileId}-to`}
                type="date"
                value={range.to}
                onChange={(event) => setRange((r) => ({ ...r, to: event.currentTarget.value }))}
              />
            </div>
          </div>
          <p data-testid="import-choice">
            {summary.conversations} conversations chosen: {summary.extractionCalls} exchanges to read, one extraction
            call each (and a consolidation call for a memory found that resembles one already remembered).
          </p>
          <fieldset className="space-y-1.5" data-testid="import-keep">
            <legend className="mb-1 font-medium">The conversations themselves</legend>
            <label className="flex items-start gap-2">
              <input
                type="radio"
                name={`${fileId}-keep`}
                className="mt-1"
                checked={keepConversations}
                onChange={() => setKeepConversations(true)}
              />
              <span>
                Keep them as archived, read-only chats marked “Imported from {IMPORT_SOURCE_LABELS[parsed.source]}”.
                Importing the same export again adds only what is new.
              </span>
            </label>
            <label className="flex items-start gap-2">
              <input
                type="radio"
                name={`${fileId}-keep`}
                className="mt-1"
                checked={!keepConversations}
                onChange={() => setKeepConversations(false)}
              />
              <span>
                Don’t keep them: delete them once they are read (or the import is cancelled). The memories stay and say
                which conversation and day they come from.
              </span>
            </label>
          </fieldset>
          <Button onClick={() => void start()} disabled={busy !== null || chosen.length === 0}>
            <UploadIcon aria-hidden="true" />
            Import {summary.conversations} conversations
          </Button>
        </div>
      )}
      {restoring && <RestoreExport key={restoring.fileName} parsed={restoring} />}
      {undone && (
        <div role="status" className="space-y-1">
          <p className="text-sm text-muted-foreground" data-testid="import-undone">
            {undoneSentence(undone)}
          </p>
          <KeptMemories kept={undone.kept} />
        </div>
      )}
      {progress && (
        <ImportProgressView
          progress={progress}
          onChange={(changed) => {
            setProgress(changed);
            setListed((rows) => rows.map((row) => (row.id === changed.id ? changed : row)));
          }}
          onUndone={(result) => {
            setListed((rows) => rows.filter((row) => row.id !== progress.id));
            setProgress(null);
            setUndone(result);
          }}
        />
      )}
      {listed.length > 0 && (
        <ImportList imports={listed} shownId={progress?.id ?? null} onShow={(row) => setProgress(row)} />
      )}
    </div>
  );
}

function undoneSentence(undone: UndoneImport): string {
  const changed = (n: number) => `${plural(n, "memory", "memories")} it changed`;
  const parts = [
    undone.conversationsDeleted === 0
      ? `the ${plural(undone.memoriesErased, "memory", "memories")} it brought ${undone.memoriesErased === 1 ? "is" : "are"} deleted`
      : `${plural(undone.conversationsDeleted, "conversation")} and ${plural(undone.memoriesErased, "memory", "memories")} it brought are deleted`,
    ...(undone.memoriesRestored > 0
      ? [`${changed(undone.memoriesRestored)} ${undone.memoriesRestored === 1 ? "is" : "are"} back as before it`]
      : []),
    ...(undone.memoriesKept > 0
      ? [
          `${changed(undone.memoriesKept)} ${undone.memoriesKept === 1 ? "stays as it is: it was" : "stay as they are: they were"} changed again since`,
        ]
      : []),
  ];
  return `Import undone: ${parts.join("; ")}.`;
}

/** The memories an undo left as they are, each a link to itself on the memories page. */
function KeptMemories({ kept }: { kept: UndoneImport["kept"] }) {
  if (kept.length === 0) return null;
  return (
    <ul className="list-disc pl-5 text-sm" data-testid="import-undone-kept">
      {kept.map((memory) => (
        <li key={memory.id}>
          <Link href={`/memories?id=${memory.id}`} className="text-brand hover:underline">
            {memory.title ?? memory.content}
          </Link>
        </li>
      ))}
    </ul>
  );
}

function ImportProgressView({
  progress,
  onChange,
  onUndone,
}: {
  progress: ImportProgressJson;
  onChange: (progress: ImportProgressJson) => void;
  onUndone: (undone: UndoneImport) => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const change = async (request: () => Promise<unknown>) => {
    setError(null);
    setPending(true);
    try {
      await request();
      onChange((await api<{ import: ImportProgressJson }>(`/api/imports/${progress.id}`)).import);
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setPending(false);
    }
  };
  const act = (action: "pause" | "resume" | "cancel") =>
    change(() => api(`/api/imports/${progress.id}/${action}`, { method: "POST" }));
  // The import is gone once undone: nothing to read back.
  const undo = async () => {
    setError(null);
    setPending(true);
    try {
      onUndone((await api<{ undone: UndoneImport }>(`/api/imports/${progress.id}`, { method: "DELETE" })).undone);
    } catch (caught) {
      setError(errorMessage(caught));
      setPending(false);
    }
  };
  const retry = (assistantMessageId: string) =>
    change(() => api(`/api/messages/${assistantMessageId}/extraction/retry`, { method: "POST" }));
  const active = progress.status === "running" || progress.status === "paused";
  const conversationsGone =
    !progress.keepConversations && (progress.status === "done" || progress.status === "cancelled");
  return (
    <div
      className="space-y-2 rounded-lg border p-4 text-sm"
      data-testid="import-progress"
      data-status={progress.status}
    >
      <ImportProgressBar progress={progress} />
      <p>
        <Link
          href={`/settings/imports/${progress.id}`}
          className="text-brand hover:underline"
          data-testid="import-page-link"
        >
          What was learned from each exchange
        </Link>
      </p>
      {progress.status === "cancelled" && (
        <p className="text-muted-foreground">
          The exchanges not read when you cancelled will not be;{" "}
          {progress.keepConversations
            ? "what was read stays."
            : "the memories read before stay, the conversations are deleted."}
        </p>
      )}
      {!progress.keepConversations && progress.status !== "cancelled" && (
        <p className="text-muted-foreground" data-testid="import-not-kept">
          {progress.status === "done"
            ? "Its conversations were deleted once read, as you chose; the memories read from them stay."
            : "Its conversations are deleted once they are read, as you chose; the memories read from them stay."}
        </p>
      )}
      {active && (
        <div className="flex gap-2">
          {progress.status === "running" ? (
            <Button size="sm" variant="outline" disabled={pending} onClick={() => void act("pause")}>
              Pause
            </Button>
          ) : (
            <Button size="sm" variant="outline" disabled={pending} onClick={() => void act("resume")}>
              Resume
            </Button>
          )}
          <Button size="sm" variant="outline" disabled={pending} onClick={() => void act("cancel")}>
            Cancel import
          </Button>
        </div>
      )}
      {confirming ? (
        <div className="space-y-2 rounded-md border border-destructive/40 p-3" data-testid="import-undo-confirm">
          <p>
            {conversationsGone
              ? "This deletes the memories this import added"
              : `This deletes the ${plural(progress.conversations, "conversation")} this import brought and the memories it added from them`}
            ; a memory it changed is put back as it was, unless it was changed again since. It cannot be undone.
          </p>
          <div className="flex gap-2">
            <Button size="sm" variant="destructive" disabled={pending} onClick={() => void undo()}>
              Undo import
            </Button>
            <Button size="sm" variant="outline" onClick={() => setConfirming(false)}>
              Keep it
            </Button>
          </div>
        </div>
      ) : (
        <Button size="sm" variant="outline" className="text-destructive" onClick={() => setConfirming(true)}>
          Undo this import…
        </Button>
      )}
      {error && <FormAlert>{error}</FormAlert>}
      {progress.failures.length > 0 && (
        <ul className="ml-5 list-disc text-muted-foreground" data-testid="import-failures">
          {progress.failures.map((failure) => (
            <li key={failure.extractionId}>
              {failure.conversationTitle}: {failure.error ?? "failed"}
              {progress.status === "done" && failure.assistantMessageId && (
                <Button
                  size="sm"
                  variant="link"
                  className="ml-2 h-auto p-0"
                  disabled={pending}
                  onClick={() => failure.assistantMessageId && void retry(failure.assistantMessageId)}
                >
                  Retry
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
