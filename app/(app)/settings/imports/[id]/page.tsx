import { ArrowLeftIcon } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requestDates } from "@/app/(app)/request-dates";
import { DateTime } from "@/components/dates";
import { PageHeader } from "@/components/page-header";
import { Badge, type BadgeVariant } from "@/components/ui/badge";
import { buttonVariants } from "@/components/ui/button";
import { isAppError } from "@/core/errors";
import { getDb } from "@/db/client";
import { IMPORT_PAGE, type ImportPageExchange, listImportPage, progressOf } from "@/db/queries/imports";
import { listMemoriesByIds } from "@/db/queries/memories";
import type { ExtractionStatus } from "@/db/schema";
import { requireServerSession } from "@/lib/auth/server";
import { IMPORT_STATUS_WORDS, progressWords } from "@/lib/import/progress-words";
import { IMPORT_SOURCE_LABELS } from "@/lib/import/types";
import type { StoredDecision } from "@/lib/memory/extraction/store";
import { type DateContext, plural } from "@/lib/ui/format";
import { importPageNumber } from "@/lib/ui/record-pages";

export const metadata: Metadata = { title: "Import" };
export const dynamic = "force-dynamic";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const STATUS: Record<ExtractionStatus, { label: string; variant: BadgeVariant }> = {
  queued: { label: "waiting", variant: "info" },
  running: { label: "reading", variant: "info" },
  succeeded: { label: "done", variant: "success" },
  failed: { label: "failed", variant: "danger" },
  skipped: { label: "skipped: memory was off for this chat", variant: "outline" },
};

const ACTIONS: Record<StoredDecision["action"], { label: string; variant: BadgeVariant }> = {
  add: { label: "added", variant: "success" },
  update: { label: "updated", variant: "info" },
  supersede: { label: "replaced", variant: "warning" },
  skip: { label: "skipped", variant: "outline" },
};

const count = (n: number) => n.toLocaleString("en-US");

/** A memory the page links to, or says is gone (deleted or erased since). */
function MemoryRef({ id, live, children }: { id: string; live: Set<string>; children: React.ReactNode }) {
  if (!live.has(id)) return <span className="text-muted-foreground">{children} (a memory deleted since)</span>;
  return (
    <Link href={`/memories?id=${id}`} className="text-brand hover:underline" data-testid="import-memory-link">
      {children}
    </Link>
  );
}

function Decision({ decision, live }: { decision: StoredDecision; live: Set<string> }) {
  const action = ACTIONS[decision.action] ?? { label: decision.action, variant: "outline" as const };
  const text = <q>{decision.candidate.content}</q>;
  return (
    <li className="flex flex-wrap items-baseline gap-x-2 gap-y-1" data-testid="import-decision">
      <Badge variant={action.variant}>{action.label}</Badge>
      {decision.memoryId ? (
        <MemoryRef id={decision.memoryId} live={live}>
          {text}
        </MemoryRef>
      ) : (
        <span>{text}</span>
      )}
      {decision.action === "update" && (
        <span className="text-muted-foreground">(merged into a memory it already had)</span>
      )}
      {decision.action === "supersede" && decision.targetId && (
        <span className="text-muted-foreground">
          replacing{" "}
          <MemoryRef id={decision.targetId} live={live}>
            an older memory
          </MemoryRef>
        </span>
      )}
      {decision.action === "skip" && decision.memoryId && (
        <span className="text-muted-foreground">(already remembered: the link is that memory)</span>
      )}
      <span className="text-muted-foreground">— {decision.reason}</span>
      {decision.override && <span className="text-xs text-amber-700 dark:text-amber-300">({decision.override})</span>}
    </li>
  );
}

function Exchange({
  exchange,
  conversationId,
  live,
  dates,
}: {
  exchange: ImportPageExchange;
  conversationId: string;
  live: Set<string>;
  dates: DateContext;
}) {
  const status = STATUS[exchange.status];
  const decisions = exchange.decisions as StoredDecision[];
  return (
    <li className="space-y-2 rounded-lg border p-3 text-sm" data-testid="import-exchange" data-status={exchange.status}>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <Badge variant={status.variant} data-testid="import-exchange-status">
          {status.label}
        </Badge>
        <span className="text-xs text-muted-foreground">
          <DateTime value={exchange.saidAt} dates={dates} />
        </span>
        <span className="ml-auto flex gap-3 text-xs">
          <Link
            href={`/messages/${exchange.assistantMessageId}/debug#extraction`}
            className="text-brand hover:underline"
            data-testid="import-inspect-link"
          >
            Inspect the extraction
          </Link>
          <Link
            href={`/messages/${exchange.assistantMessageId}/debug#extraction-input`}
            className="text-brand hover:underline"
            data-testid="import-input-link"
          >
            What its model received
          </Link>
        </span>
      </div>
      <Link
        href={`/chat/${conversationId}#message-${exchange.userMessageId}`}
        className="block whitespace-pre-wrap break-words hover:underline"
      >
        <span className="text-muted-foreground">You: </span>
        {exchange.userExcerpt}
        {exchange.userExcerpt.length >= IMPORT_PAGE.excerptChars ? "…" : ""}
      </Link>
      {exchange.status === "failed" && (
        <p className="text-red-800 dark:text-red-300">
          After {plural(exchange.attempts, "attempt")}: {exchange.lastError ?? "no reason was recorded"}
        </p>
      )}
      {exchange.status === "queued" && exchange.lastError && (
        <p className="text-muted-foreground">Retrying after: {exchange.lastError}</p>
      )}
      {exchange.status === "succeeded" && decisions.length === 0 && (
        <p className="text-muted-foreground">The extraction found nothing to remember in this exchange.</p>
      )}
      {decisions.length > 0 && (
        <ul className="space-y-1" aria-label="What was extracted">
          {decisions.map((decision, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: decisions are stored once, in order
            <Decision key={index} decision={decision} live={live} />
          ))}
        </ul>
      )}
    </li>
  );
}

export default async function ImportPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ page?: string | string[] }>;
}) {
  const { id } = await params;
  const session = await requireServerSession(`/settings/imports/${id}`);
  // proxy.ts answered 404 (the status) for each of these; this is the lock.
  const page = importPageNumber((await searchParams).page);
  if (!UUID.test(id) || page === null) notFound();
  const db = await getDb();
  const data = await listImportPage(db, { userId: session.id, importId: id, page }).catch((error: unknown) => {
    if (isAppError(error) && error.code === "not_found:import") notFound();
    throw error;
  });
  if (page > 1 && data.conversations.length === 0) notFound();
  const [progress, dates] = await Promise.all([progressOf(db, data.import), requestDates(session.id)]);
  const decisions = data.conversations.flatMap((c) => c.exchanges.flatMap((e) => e.decisions as StoredDecision[]));
  const referenced = [...new Set(decisions.flatMap((d) => [d.memoryId, d.targetId].filter((x) => x !== null)))];
  const live = new Set(
    (await listMemoriesByIds(db, { userId: session.id, ids: referenced }))
      .filter((memory) => memory.status !== "deleted")
      .map((memory) => memory.id),
  );
  const first = data.offset + 1;
  const last = data.offset + data.conversations.length;
  const pageHref = (n: number) => `/settings/imports/${id}?page=${n}`;

  return (
    <div className="mx-auto w-full max-w-5xl space-y-5 px-4 py-8 sm:px-6">
      <Link
        href="/settings#import"
        className="inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground"
      >
        <ArrowLeftIcon className="size-4" aria-hidden="true" /> Settings
      </Link>
      <PageHeader
        title={`Import of ${data.import.fileName}`}
        description={
          <>
            {IMPORT_SOURCE_LABELS[data.import.source]} export, sent{" "}
            <DateTime value={data.import.createdAt} dates={dates} /> · {IMPORT_STATUS_WORDS[data.import.status]}. What
            was read from each exchange, and what became of it.
          </>
        }
      />
      <p className="text-sm" data-testid="import-page-counts">
        {progressWords(progress)}
      </p>
      {data.total === 0 ? (
        <p className="text-sm text-muted-foreground">
          {data.import.summary
            ? "Its conversations are no longer kept (you chose not to keep them), so what each exchange gave is not shown here. The memories read from them stay, each saying where it was said."
            : "This import has no conversations with an exchange to read."}
        </p>
      ) : (
        <nav className="flex flex-wrap items-center gap-3 text-sm" aria-label="Pages of conversations">
          <span data-testid="import-page-range">
            Showing conversations {count(first)}–{count(last)} of {count(data.total)}, oldest first
          </span>
          {page > 1 && (
            <Link href={pageHref(page - 1)} className={buttonVariants({ variant: "outline", size: "sm" })}>
              Previous
            </Link>
          )}
          {last < data.total && (
            <Link href={pageHref(page + 1)} className={buttonVariants({ variant: "outline", size: "sm" })}>
              Next
            </Link>
          )}
        </nav>
      )}
      <ol className="space-y-6">
        {data.conversations.map((conversation) => (
          <li
            key={conversation.id}
            className="space-y-3 rounded-xl border bg-card p-4"
            data-testid="import-conversation"
          >
            <div>
              <h2 className="font-medium">
                <Link href={`/chat/${conversation.id}`} className="hover:underline">
                  {conversation.title}
                </Link>
              </h2>
              <p className="text-xs text-muted-foreground">
                Started <DateTime value={conversation.createdAt} dates={dates} /> ·{" "}
                {plural(conversation.exchangeCount, "exchange")} from this import
                {conversation.exchangeCount > conversation.exchanges.length &&
                  ` (the first ${conversation.exchanges.length} shown here; the rest are in the chat)`}
              </p>
            </div>
            <ol className="space-y-2">
              {conversation.exchanges.map((exchange) => (
                <Exchange
                  key={exchange.extractionId}
                  exchange={exchange}
                  conversationId={conversation.id}
                  live={live}
                  dates={dates}
                />
              ))}
            </ol>
          </li>
        ))}
      </ol>
    </div>
  );
}
