"use client";

import { BrainIcon, CircleAlertIcon, LoaderCircleIcon, MinusCircleIcon, RotateCcwIcon } from "lucide-react";
import Link from "next/link";
import { type ReactNode, useEffect, useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { api, errorMessage } from "@/lib/ui/api";
import { savedWords } from "./extraction-words";
import { type ExtractionSummary, isTerminalExtraction } from "./types";

const POLL_MS = 1000;
const POLL_LIMIT_MS = 60_000;

type Polled = Pick<ExtractionSummary, "status" | "memoryIds" | "memoriesUpdated" | "lastError" | "attempts"> & {
  retrying?: boolean;
};

/**
 * Polls the extraction of the answer `messageId` until it is terminal (or a minute passed), then
 * calls `onSettled`.
 */
function useExtraction(messageId: string, initial: Polled, poll: boolean, onSettled?: () => void) {
  const [extraction, setExtraction] = useState<Polled>(initial);
  const [gaveUp, setGaveUp] = useState(false);
  const [round, setRound] = useState(0);
  const terminal = isTerminalExtraction(extraction.status);

  useEffect(() => {
    if (!poll || terminal) return;
    const started = Date.now();
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout>;
    const tick = async () => {
      try {
        const { extraction: next } = await api<{ extraction: Polled }>(`/api/messages/${messageId}/extraction`);
        if (cancelled) return;
        setExtraction(next);
        if (isTerminalExtraction(next.status)) return onSettled?.();
      } catch {
        // a network blip: try again on the next tick
      }
      if (cancelled) return;
      if (Date.now() - started > POLL_LIMIT_MS) return setGaveUp(true);
      timer = setTimeout(tick, POLL_MS);
    };
    timer = setTimeout(tick, round === 0 ? 300 : POLL_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [messageId, poll, terminal, round, onSettled]);

  const retry = async () => {
    try {
      const { extraction: next } = await api<{ extraction: Polled }>(`/api/messages/${messageId}/extraction/retry`, {
        method: "POST",
      });
      setExtraction(next);
      setGaveUp(false);
      setRound((n) => n + 1);
    } catch (error) {
      toast.error(`Could not retry: ${errorMessage(error)}`);
    }
  };

  return { extraction, gaveUp, retry };
}

/** "Saving memories…" → "Saved 2 memories" (or "Updated 1 memory") / "Nothing to remember" / "Saving memories failed — Retry". */
export function ExtractionStatus({
  messageId,
  initial,
  poll,
  onSettled,
}: {
  messageId: string;
  initial: Polled;
  /** Only the newest answer is polled; older ones show what was stored. */
  poll: boolean;
  onSettled?: () => void;
}) {
  const { extraction, gaveUp, retry } = useExtraction(messageId, initial, poll, onSettled);
  const status = extraction.status;

  let content: ReactNode;
  if (status === "succeeded") {
    const count = extraction.memoryIds.length;
    content =
      count > 0 ? (
        <Link
          href="/memories"
          className="inline-flex items-center gap-1 text-emerald-700 hover:underline dark:text-emerald-400"
        >
          <BrainIcon className="size-3.5" aria-hidden="true" />
          {savedWords({ memories: count, updated: extraction.memoriesUpdated })}
        </Link>
      ) : (
        <span className="inline-flex items-center gap-1">
          <MinusCircleIcon className="size-3.5" aria-hidden="true" />
          {savedWords({ memories: 0, updated: 0 })}
        </span>
      );
  } else if (status === "skipped") {
    content = (
      <span className="inline-flex items-center gap-1" title="Memory is off for this chat">
        <MinusCircleIcon className="size-3.5" aria-hidden="true" />
        Not saved (memory off)
      </span>
    );
  } else if (status === "failed") {
    content = (
      <span className="inline-flex items-center gap-1 text-destructive">
        <CircleAlertIcon className="size-3.5" aria-hidden="true" />
        <span title={extraction.lastError ?? undefined}>Saving memories failed</span>
        <Button variant="outline" size="xs" className="ml-1 h-6" onClick={() => void retry()}>
          <RotateCcwIcon aria-hidden="true" />
          Retry
        </Button>
      </span>
    );
  } else if (gaveUp) {
    content = <span>Still saving memories — check back later</span>;
  } else {
    const retrying = extraction.retrying === true;
    content = (
      <span className="inline-flex items-center gap-1">
        <LoaderCircleIcon className="size-3.5 animate-spin" aria-hidden="true" />
        {retrying ? `Saving memories… (retrying, attempt ${extraction.attempts + 1})` : "Saving memories…"}
      </span>
    );
  }

  return (
    <span role="status" data-testid="extraction-status" data-status={status}>
      {content}
    </span>
  );
}
