import { ThumbsDownIcon, ThumbsUpIcon } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { requestDates } from "@/app/(app)/request-dates";
import { PageHeader } from "@/components/page-header";
import { getDb } from "@/db/client";
import { listRatedAnswers } from "@/db/queries/ratings";
import { requireServerSession } from "@/lib/auth/server";
import { cn } from "@/lib/ui/cn";
import { formatDateTime } from "@/lib/ui/format";
import { plainSnippet } from "@/lib/ui/plain-snippet";
import { ratingFilter } from "@/lib/validation/ratings";

export const metadata: Metadata = { title: "Rated answers" };
export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const FILTERS = [
  { value: undefined, label: "All" },
  { value: "up", label: "Good" },
  { value: "down", label: "Bad" },
] as const;

export default async function RatedAnswersPage({ searchParams }: { searchParams: SearchParams }) {
  const session = await requireServerSession("/messages/rated");
  const raw = await searchParams;
  const parsed = ratingFilter.safeParse({ rating: typeof raw.rating === "string" ? raw.rating : undefined });
  const rating = parsed.success ? parsed.data.rating : undefined;
  const db = await getDb();
  const [answers, dates] = await Promise.all([
    listRatedAnswers(db, { userId: session.id, rating }),
    requestDates(session.id),
  ]);

  return (
    <div className="mx-auto w-full max-w-3xl space-y-5 px-4 py-8 sm:px-6">
      <PageHeader
        title="Rated answers"
        description="Answers you gave a thumbs up or down. Open “Inspect” to see what the model received for each one."
      />
      <nav aria-label="Filter by rating" className="flex gap-1">
        {FILTERS.map((filter) => (
          <Link
            key={filter.label}
            href={filter.value ? `/messages/rated?rating=${filter.value}` : "/messages/rated"}
            aria-current={filter.value === rating ? "page" : undefined}
            className={cn(
              "rounded-md px-3 py-1.5 text-sm text-muted-foreground hover:bg-accent hover:text-foreground",
              filter.value === rating && "bg-accent font-medium text-foreground",
            )}
          >
            {filter.label}
          </Link>
        ))}
      </nav>
      {!parsed.success && (
        <p role="alert" className="text-sm text-destructive">
          That filter is not valid; showing every rated answer.
        </p>
      )}
      {answers.length === 0 ? (
        <p className="rounded-xl border border-dashed px-4 py-8 text-center text-sm text-muted-foreground">
          {rating ? `No answers rated ${rating === "up" ? "good" : "bad"} yet.` : "No rated answers yet."} Rate an
          answer with the thumbs under it in a chat.
        </p>
      ) : (
        <ul className="space-y-3" data-testid="rated-answers">
          {answers.map((answer) => (
            <li
              key={answer.messageId}
              className="rounded-xl border bg-card px-4 py-3 text-sm"
              data-testid="rated-answer"
            >
              <div className="flex items-center gap-2 text-xs text-muted-foreground">
                {answer.rating === "up" ? (
                  <ThumbsUpIcon className="size-3.5" aria-label="Rated good" />
                ) : (
                  <ThumbsDownIcon className="size-3.5" aria-label="Rated bad" />
                )}
                <span className="min-w-0 truncate">In chat {answer.conversationTitle}</span>
                <span aria-hidden="true">·</span>
                <time dateTime={answer.updatedAt.toISOString()} className="shrink-0">
                  {formatDateTime(answer.updatedAt, dates)}
                </time>
              </div>
              {answer.question !== null && (
                <p className="mt-1.5 line-clamp-2" data-testid="rated-question">
                  <span className="text-muted-foreground">You asked </span>
                  <q className="font-medium">{plainSnippet(answer.question)}</q>
                </p>
              )}
              <p className="mt-1 line-clamp-3 text-foreground/85" data-testid="rated-excerpt">
                <span className="sr-only">The answer: </span>
                {plainSnippet(answer.excerpt)}
              </p>
              {answer.reason && (
                <p className="mt-1.5 whitespace-pre-wrap text-muted-foreground">
                  Your reason: <q>{answer.reason}</q>
                </p>
              )}
              <div className="mt-2 flex gap-4 text-xs">
                <Link
                  href={`/chat/${answer.conversationId}#message-${answer.messageId}`}
                  className="underline underline-offset-2"
                >
                  Open in chat
                </Link>
                <Link href={`/messages/${answer.messageId}/debug`} className="underline underline-offset-2">
                  Inspect
                </Link>
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
