"use client";

import {
  BrainIcon,
  ChevronDownIcon,
  CircleAlertIcon,
  CircleOffIcon,
  RefreshCwIcon,
  SearchCodeIcon,
} from "lucide-react";
import Link from "next/link";
import { useId, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/lib/ui/cn";
import { formatMs, plural } from "@/lib/ui/format";
import { memoryReasons, REACH_LABELS, type Reach, sentSummary } from "@/lib/ui/memory-reasons";
import { ExtractionStatus } from "./extraction-status";
import type { ChatMessage, MessageInfo } from "./types";

type SentMemory = NonNullable<NonNullable<MessageInfo["debug"]>["memoriesSent"]>[number];

const REACHES: Reach[] = ["matched", "looked_up", "at_hand"];

/**
 * The memories sent with an answer, grouped by why they were sent (matched this message, looked up
 * by the model, at hand), one chip each: the whole title (chips wrap, never cut) and its branches.
 */
function MemoryChips({ id, sent, hidden }: { id: string; sent: readonly SentMemory[]; hidden: boolean }) {
  return (
    <div id={id} hidden={hidden} className="mt-1.5 space-y-1.5" data-testid="memory-chips">
      {REACHES.map((reach) => {
        const group = sent.filter((memory) => memory.reach === reach);
        if (group.length === 0) return null;
        return (
          <div key={reach} data-testid={`memory-group-${reach}`}>
            <p className="mb-1">{REACH_LABELS[reach]}</p>
            <ul aria-label={REACH_LABELS[reach]} className="flex flex-wrap gap-1.5">
              {group.map((memory) => (
                <li
                  key={memory.memoryId}
                  className="max-w-full rounded-md border bg-background px-2 py-0.5 leading-5 break-words"
                  data-testid="memory-chip"
                >
                  <span className="text-foreground/85">
                    {memory.deleted ? "Deleted memory" : (memory.title ?? "Untitled memory")}
                  </span>
                  <span className="text-muted-foreground"> · {memoryReasons(memory.branches)}</span>
                </li>
              ))}
            </ul>
          </div>
        );
      })}
    </div>
  );
}

/** Memories the answer's retrieval could not compare: waiting for re-embedding after an embedder change. */
function Reindexing({ count }: { count: number }) {
  return (
    <Badge
      variant="outline"
      title={`${plural(count, "of your memories is", "of your memories are")} being re-indexed for a new embedding model: this answer could not search ${count === 1 ? "it" : "them"}.`}
      data-testid="memory-reindexing"
    >
      <RefreshCwIcon aria-hidden="true" />
      Memory is being re-indexed
    </Badge>
  );
}

/** The retrieval's outcome in a few words; "Sent 3 memories: …" opens the list of them. */
function RetrievalSummary({
  status,
  sent,
  reindexing,
  open,
  onToggle,
  chipsId,
}: {
  status: string | undefined;
  sent: readonly SentMemory[] | undefined;
  reindexing: number;
  open: boolean;
  onToggle: () => void;
  chipsId: string;
}) {
  if (status === "failed") {
    return (
      <Badge
        variant="danger"
        title="Your memories could not be searched for this answer. This is not the same as finding nothing."
      >
        <CircleAlertIcon aria-hidden="true" />
        Memory retrieval failed
      </Badge>
    );
  }
  if (status === "disabled") {
    return (
      <Badge variant="outline" title="Memory is off for this chat">
        <CircleOffIcon aria-hidden="true" />
        Memory off
      </Badge>
    );
  }
  if (!sent) return null;
  if (sent.length === 0)
    return reindexing > 0 ? (
      <Reindexing count={reindexing} />
    ) : (
      <span data-testid="memories-sent">{sentSummary(sent)}</span>
    );
  return (
    <>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={chipsId}
        onClick={onToggle}
        className="inline-flex items-center gap-1 rounded-md hover:text-foreground"
        data-testid="memories-sent"
      >
        <BrainIcon className="size-3.5" aria-hidden="true" />
        {sentSummary(sent)}
        <ChevronDownIcon className={cn("size-3.5 transition-transform", open && "rotate-180")} aria-hidden="true" />
      </button>
      {reindexing > 0 && <Reindexing count={reindexing} />}
    </>
  );
}

/**
 * The quiet line under an answer: "Sent 3 memories: 1 matched this message, 2 at hand" (opening to
 * a chip per memory, grouped by why it was sent), Inspect, and the pair's extraction status. The technical details — model, latency, tokens,
 * the retrieval branches — are the Inspect link's title and the debug view's.
 */
export function MessageMeta({
  message,
  info,
  isNewest,
  onExtractionSettled,
  inspectExtractionOnly = false,
}: {
  message: ChatMessage;
  info: MessageInfo | undefined;
  isNewest: boolean;
  onExtractionSettled: () => void;
  /** An imported answer: never sent to a model here, so no debug record; its Inspect page shows its extraction. */
  inspectExtractionOnly?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const chipsId = useId();
  const model = info?.debug?.modelId ?? message.metadata?.model;
  const latency = info?.debug?.latencyMs ?? message.metadata?.latencyMs;
  const tokens = info?.debug?.totalTokens ?? message.metadata?.usage?.totalTokens;
  const details = [
    model,
    latency != null && formatMs(latency),
    tokens != null && `${tokens.toLocaleString("en-US")} tokens`,
  ]
    .filter(Boolean)
    .join(" · ");
  const status = info?.status;
  const sent = info?.debug?.memoriesSent;

  return (
    <div className="text-xs text-muted-foreground" data-testid="message-meta">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <RetrievalSummary
          status={info?.debug?.retrievalStatus ?? message.metadata?.retrievalStatus}
          sent={sent}
          reindexing={info?.debug?.memoriesReindexing ?? 0}
          open={open}
          onToggle={() => setOpen((value) => !value)}
          chipsId={chipsId}
        />
        {(info?.debug || (inspectExtractionOnly && info?.extraction)) && (
          <Link
            href={`/messages/${message.id}/debug`}
            className="inline-flex items-center gap-1 rounded-md text-brand hover:underline"
            title={details || undefined}
            aria-label={details ? `Inspect this answer: ${details}` : "Inspect this answer"}
            data-testid="inspect-link"
          >
            <SearchCodeIcon className="size-3.5" aria-hidden="true" />
            Inspect
          </Link>
        )}
        {info?.extraction && status !== "error" && (
          <ExtractionStatus
            key={message.id}
            messageId={message.id}
            initial={info.extraction}
            poll={isNewest}
            onSettled={onExtractionSettled}
          />
        )}
      </div>
      {sent && sent.length > 0 && <MemoryChips id={chipsId} sent={sent} hidden={!open} />}
    </div>
  );
}
