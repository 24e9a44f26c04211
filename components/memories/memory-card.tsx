import { MessageSquareIcon, SearchCodeIcon } from "lucide-react";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import type { ListedMemory } from "@/db/queries/memory-list";
import { IMPORT_SOURCE_LABELS } from "@/lib/import/types";
import { cn } from "@/lib/ui/cn";
import {
  type DateContext,
  deadlineState,
  formatCalendarDate,
  formatDateTime,
  formatRelative,
  plural,
  withLocalDates,
} from "@/lib/ui/format";
import { PROVENANCE_LABELS, STATUS_LABELS, TYPE_LABELS } from "./labels";
import { MemoryActions } from "./memory-actions";
import { PinnedMark, PinnedState } from "./pinned-state";

function ImportanceMeter({ value }: { value: number }) {
  return (
    <span className="inline-flex items-center gap-1.5" title={`Importance ${value.toFixed(2)} of 1`}>
      <span className="h-1.5 w-8 overflow-hidden rounded-full bg-muted" aria-hidden="true">
        <span className="block h-full rounded-full bg-amber-500" style={{ width: `${value * 100}%` }} />
      </span>
      <span>importance {value.toFixed(2)}</span>
    </span>
  );
}

function Excerpt({ text }: { text: string }) {
  return (
    <q className="max-w-[16rem] min-w-0 truncate italic" title={text} data-testid="memory-source-excerpt">
      {text}
    </q>
  );
}

/** Where a memory came from: the chat and the exchange (whose debug view shows the extraction). */
function Source({ memory, dates }: { memory: ListedMemory; dates: DateContext }) {
  // Its chat stayed in the account it was exported from; its provenance badge still says who stated it.
  if (memory.restoredAt) {
    return (
      <span data-testid="memory-source">
        Restored from a Lifeline export on {formatDateTime(memory.restoredAt, dates)}
      </span>
    );
  }
  if (memory.pastedAt) {
    return <span data-testid="memory-source">You pasted this on {formatDateTime(memory.pastedAt, dates)}</span>;
  }
  // The provenance badge already says "Added by you".
  if (memory.provenance === "user_created") return null;
  if (memory.sourceAccessTokenId) {
    return <span data-testid="memory-source">From {memory.sourceTokenName ?? "a deleted access token"}</span>;
  }
  // What the user said that the memory comes from (the extraction's evidence), when it was kept.
  const excerpt = memory.evidence.find((e) => e.role === "user")?.quote ?? memory.evidence[0]?.quote;
  // An import whose conversations were not kept: nothing to link to, but where and when it was said.
  if (!memory.sourceConversationId && memory.importedSource) {
    const { from, conversationTitle, saidAt } = memory.importedSource;
    return (
      <span className="inline-flex flex-wrap items-center gap-x-2 gap-y-1">
        <span data-testid="memory-source">
          Imported from {IMPORT_SOURCE_LABELS[from]}, <span className="font-medium">{conversationTitle}</span>, said on{" "}
          {formatDateTime(saidAt, dates)}
        </span>
        {excerpt && <Excerpt text={excerpt} />}
      </span>
    );
  }
  if (!memory.sourceConversationId) return <span>From a deleted chat</span>;
  // The query names the message for the server (a message on another version switches the chat to
  // it: app/(app)/chat/[id]/page.tsx), the fragment for the scroll to it.
  const anchor = memory.sourceUserMessageId
    ? `?message=${memory.sourceUserMessageId}#message-${memory.sourceUserMessageId}`
    : "";
  return (
    <span className="inline-flex flex-wrap items-center gap-x-2 gap-y-1">
      <Link
        href={`/chat/${memory.sourceConversationId}${anchor}`}
        className="inline-flex items-center gap-1 text-brand hover:underline"
        data-testid="memory-source"
      >
        <MessageSquareIcon className="size-3.5" aria-hidden="true" />
        {memory.sourceConversationTitle ? (
          <span>
            In chat <span className="font-medium">{memory.sourceConversationTitle}</span>
          </span>
        ) : (
          "In a chat"
        )}
      </Link>
      {excerpt && <Excerpt text={excerpt} />}
      {memory.sourceAssistantMessageId && memory.sourceInspectable && (
        <Link
          href={`/messages/${memory.sourceAssistantMessageId}/debug#extraction`}
          className="inline-flex items-center gap-1 hover:text-foreground hover:underline"
        >
          <SearchCodeIcon className="size-3.5" aria-hidden="true" />
          source message
        </Link>
      )}
    </span>
  );
}

/** A memory's deadline with its weekday ("Due Fri 11 Dec"), in the user's locale, against their today. */
function Deadline({ deadline, dates }: { deadline: string; dates: DateContext }) {
  const state = deadlineState(deadline, dates.today);
  return (
    <Badge
      variant={state === "overdue" ? "danger" : state === "today" ? "warning" : "outline"}
      data-testid="memory-deadline"
      title={deadline}
    >
      {state === "overdue" ? "Overdue: " : state === "today" ? "Due today: " : "Due "}
      {formatCalendarDate(deadline, dates)}
    </Badge>
  );
}

/**
 * One memory as a compact row of the list: its title and actions, its content, and one line of
 * what it is, where it came from and how it was used — so a screen holds several.
 */
export function MemoryCard({
  memory,
  dates,
  highlighted = false,
}: {
  memory: ListedMemory;
  dates: DateContext;
  highlighted?: boolean;
}) {
  const provenance = PROVENANCE_LABELS[memory.provenance];
  const pending = memory.status === "pending_confirmation";
  return (
    <PinnedState pinned={memory.pinned}>
      <article
        id={`memory-${memory.id}`}
        aria-labelledby={`memory-${memory.id}-title`}
        data-testid="memory-card"
        className={cn(
          "scroll-mt-4 px-3 py-2.5 sm:px-4",
          pending && "bg-amber-50/60 dark:bg-amber-950/20",
          highlighted && "rounded-xl ring-2 ring-brand/40",
          memory.status === "deleted" && "opacity-70",
        )}
      >
        <div className="flex items-start gap-2">
          <h3
            id={`memory-${memory.id}-title`}
            className="flex min-w-0 flex-1 items-center gap-1.5 pt-1 text-[15px] leading-5 font-medium"
          >
            <PinnedMark />
            <span className="truncate">{withLocalDates(memory.title ?? memory.content, dates)}</span>
          </h3>
          <div className="shrink-0">
            <MemoryActions
              memory={{
                id: memory.id,
                title: memory.title,
                content: memory.content,
                type: memory.type,
                importance: memory.importance,
                tags: memory.tags,
                status: memory.status,
                redactAt: memory.redactAt,
              }}
            />
          </div>
        </div>
        {memory.title && (
          <p
            className="line-clamp-2 text-sm leading-5 text-foreground/85"
            title={withLocalDates(memory.content, dates)}
            data-testid="memory-content"
          >
            {withLocalDates(memory.content, dates)}
          </p>
        )}
        <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-0.5 text-xs text-muted-foreground">
          <span className="inline-flex flex-wrap items-center gap-1">
            <Badge variant={provenance.variant} title={provenance.hint}>
              {provenance.label}
            </Badge>
            <Badge variant="outline">{TYPE_LABELS[memory.type]}</Badge>
            {memory.deadline && <Deadline deadline={memory.deadline} dates={dates} />}
            {memory.status !== "active" && (
              <Badge variant={pending ? "warning" : "outline"}>{STATUS_LABELS[memory.status]}</Badge>
            )}
            {memory.similarity !== null && (
              <Badge variant="semantic" title="Cosine similarity to your search">
                similarity {memory.similarity.toFixed(2)}
              </Badge>
            )}
          </span>
          {memory.tags.length > 0 && (
            <ul className="inline-flex flex-wrap gap-1" aria-label="Tags">
              {memory.tags.map((tag) => (
                <li key={tag}>
                  <Link href={`/memories?tag=${encodeURIComponent(tag)}`} className="hover:text-foreground">
                    #{tag}
                  </Link>
                </li>
              ))}
            </ul>
          )}
          <Source memory={memory} dates={dates} />
          {/* A phone keeps the list compact: importance and age are in the edit dialog and the history. */}
          <span className="max-sm:hidden">
            <ImportanceMeter value={memory.importance} />
          </span>
          <span>
            sent {plural(memory.accessCount, "time")}
            {memory.lastAccessedAt ? `, last ${formatRelative(memory.lastAccessedAt)}` : ""}
            {memory.readBy.length > 0 && (
              <>
                {" · "}
                <Link
                  href="/settings/external-calls"
                  className="hover:text-foreground hover:underline"
                  data-testid="memory-read-by"
                >
                  read by {memory.readBy.join(", ")}
                </Link>
              </>
            )}
          </span>
          <span title={formatDateTime(memory.createdAt, dates)} className="max-sm:hidden">
            created {formatRelative(memory.createdAt)}
          </span>
          {memory.editedAt && (
            <span title={formatDateTime(memory.editedAt, dates)}>edited {formatRelative(memory.editedAt)}</span>
          )}
        </div>
        {pending && (
          <p className="mt-1 text-sm text-amber-800 dark:text-amber-200">
            The assistant suggested this; it is not sent to the model until you confirm it.
          </p>
        )}
      </article>
    </PinnedState>
  );
}
