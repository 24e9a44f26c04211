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
import { memoryReasons } from "@/lib/ui/memory-reasons";
import { ExtractionStatus } from "./extraction-status";
import type { ChatMessage, MessageInfo } from "./types";

type UsedMemory = NonNullable<NonNullable<MessageInfo["debug"]>["memoriesUsed"]>[number];

/** The memories an answer used, one chip each: the whole title (chips wrap, never cut) and why it was used. */
function MemoryChips({ id, used, hidden }: { id: string; used: readonly UsedMemory[]; hidden: boolean }) {
  return (
    <ul
      id={id}
      hidden={hidden}
      aria-label="Memories used"
      className="mt-1.5 flex flex-wrap gap-1.5"
      data-testid="memory-chips"
    >
      {used.map((memory) => (
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

/** The retrieval's outcome in a few words; "Used 3 memories" opens the list of them. */
function RetrievalSummary({
  status,
  used,
  reindexing,
  open,
  onToggle,
  chipsId,
}: {
  status: string | undefined;
  used: readonly UsedMemory[] | undefined;
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
  if (!used) return null;
  if (used.length === 0) return reindexing > 0 ? <Reindexing count={reindexing} /> : <span>No memories used</span>;
  return (
    <>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={chipsId}
        onClick={onToggle}
        className="inline-flex items-center gap-1 rounded-md hover:text-foreground"
        data-testid="memories-used"
      >
        <BrainIcon className="size-3.5" aria-hidden="true" />
        Used {plural(used.length, "memory", "memories")}
        <ChevronDownIcon className={cn("size-3.5 transition-transform", open && "rotate-180")} aria-hidden="true" />
      </button>
      {reindexing > 0 && <Reindexing count={reindexing} />}
    </>
  );
}

/**
 * The quiet line under an answer: "Used 3 memories" (opening to a chip per memory, with why it was
 * used), Inspect, and the pair's extraction status. The technical details — model, latency, tokens,
 * the retrieval branches — are the Inspect link's title and the debug view's.
 */
export function MessageMeta({
  message,
  info,
  isNewest,
  onExtractionSettled,
}: {
  message: ChatMessage;
  info: MessageInfo | undefined;
  isNewest: boolean;
  onExtractionSettled: () => void;
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
  const used = info?.debug?.memoriesUsed;

  return (
    <div className="text-xs text-muted-foreground" data-testid="message-meta">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <RetrievalSummary
          status={info?.debug?.retrievalStatus ?? message.metadata?.retrievalStatus}
          used={used}
          reindexing={info?.debug?.memoriesReindexing ?? 0}
          open={open}
          onToggle={() => setOpen((value) => !value)}
          chipsId={chipsId}
        />
        {info !== undefined && (
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
      {used && used.length > 0 && <MemoryChips id={chipsId} used={used} hidden={!open} />}
    </div>
  );
}
