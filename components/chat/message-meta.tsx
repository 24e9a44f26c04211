"use client";

import { BrainIcon, CircleAlertIcon, CircleOffIcon, SearchCodeIcon } from "lucide-react";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { formatMs, plural } from "@/lib/ui/format";
import { BranchBadge } from "./branch-badge";
import { ExtractionStatus } from "./extraction-status";
import type { ChatMessage, MessageInfo } from "./types";

function RetrievalSummary({ info, metadata }: { info: MessageInfo | undefined; metadata: ChatMessage["metadata"] }) {
  const status = info?.debug?.retrievalStatus ?? metadata?.retrievalStatus;
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
  const used = info?.debug?.memoriesUsed;
  if (!used) return null;
  if (used.length === 0) return <span>No memories used</span>;
  return (
    <span className="inline-flex flex-wrap items-center gap-1">
      <BrainIcon className="size-3.5" aria-hidden="true" />
      <span>{plural(used.length, "memory", "memories")}:</span>
      {used.map((memory) => (
        <span
          key={memory.memoryId}
          className="inline-flex max-w-56 items-center gap-1 rounded-md border bg-background py-px pr-px pl-1.5"
        >
          <span className="truncate text-foreground/80">
            {memory.deleted ? "deleted memory" : (memory.title ?? "Untitled memory")}
          </span>
          {memory.branches.map((branch) => (
            <BranchBadge key={branch} branch={branch} />
          ))}
        </span>
      ))}
    </span>
  );
}

/**
 * The line under an answer: model · latency · tokens · memories used (with how each got there) —
 * a link to the debug view — then the extraction status of the pair.
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
  const model = info?.debug?.modelId ?? message.metadata?.model;
  const latency = info?.debug?.latencyMs ?? message.metadata?.latencyMs;
  const tokens = info?.debug?.totalTokens ?? message.metadata?.usage?.totalTokens;
  const stored = info !== undefined;
  const status = info?.status;

  return (
    <div
      className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-foreground"
      data-testid="message-meta"
    >
      {stored ? (
        <Link
          href={`/messages/${message.id}/debug`}
          className="group/meta inline-flex flex-wrap items-center gap-x-2 gap-y-1 rounded-md hover:text-foreground"
          aria-label={`Inspect this answer: ${[model, latency !== undefined && formatMs(latency)].filter(Boolean).join(", ")}`}
          data-testid="inspect-link"
        >
          {model && <span className="font-medium">{model}</span>}
          {latency != null && <span>· {formatMs(latency)}</span>}
          {tokens != null && <span>· {tokens.toLocaleString("en-US")} tokens</span>}
          <RetrievalSummary info={info} metadata={message.metadata} />
          <span className="inline-flex items-center gap-1 text-brand group-hover/meta:underline">
            <SearchCodeIcon className="size-3.5" aria-hidden="true" />
            Inspect
          </span>
        </Link>
      ) : (
        <span className="inline-flex items-center gap-2">
          {model && <span className="font-medium">{model}</span>}
          <RetrievalSummary info={info} metadata={message.metadata} />
        </span>
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
  );
}
