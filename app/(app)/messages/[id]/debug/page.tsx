import { ArrowLeftIcon, CircleAlertIcon, ThumbsDownIcon, ThumbsUpIcon } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { requestDates } from "@/app/(app)/request-dates";
import { DateTime } from "@/components/dates";
import { AgentToolCallCard } from "@/components/debug/agent-tool-call";
import { CandidateTable } from "@/components/debug/candidate-table";
import { ExtractionInput } from "@/components/debug/extraction-input";
import { ExtractionPanel } from "@/components/debug/extraction-panel";
import { ModelCallList } from "@/components/debug/model-calls";
import { messageText } from "@/components/debug/model-input";
import { TokenBudget } from "@/components/debug/token-budget";
import { ToolCallCard } from "@/components/debug/tool-calls";
import { Markdown } from "@/components/markdown";
import { PageHeader } from "@/components/page-header";
import { ScrollToHash } from "@/components/scroll-to-hash";
import { SectionCard } from "@/components/section-card";
import { Badge } from "@/components/ui/badge";
import { extractionConfig } from "@/core/config";
import { getDb } from "@/db/client";
import { requireServerSession } from "@/lib/auth/server";
import {
  type DebugView,
  type DeletedMemoryNote,
  getDebugPageData,
  getImportedExchangeData,
} from "@/lib/chat/debug-view";
import { sentMemories } from "@/lib/chat/transcript";
import { IMPORT_SOURCE_LABELS } from "@/lib/import/types";
import { formatBytes, type formatDateTime, formatMs, formatScore } from "@/lib/ui/format";
import { jsonify } from "@/lib/ui/json";
import { sentBreakdown } from "@/lib/ui/memory-reasons";
import { MODE_LABELS } from "@/lib/ui/modes";

export const metadata: Metadata = { title: "Inspect this answer" };
export const dynamic = "force-dynamic";

type Params = Promise<{ id: string }>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function Stat({ label, children, hint }: { label: string; children: ReactNode; hint?: ReactNode }) {
  return (
    <div className="rounded-xl border bg-card px-4 py-3">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="mt-0.5 text-sm font-medium">{children}</dd>
      {hint && <dd className="text-xs text-muted-foreground">{hint}</dd>}
    </div>
  );
}

type RecordedStep = DebugView["modelInput"][number];
type AgentTool = Extract<RecordedStep, { type: "agent-tool" }>;
type RecordedCall = Exclude<RecordedStep, AgentTool>;

function modelCallSteps(recorded: readonly RecordedStep[]) {
  const steps: { call: RecordedCall; agentTools: AgentTool[] }[] = [];
  for (const step of recorded) {
    if (step.type === "agent-tool") steps.at(-1)?.agentTools.push(step);
    else steps.push({ call: step, agentTools: [] });
  }
  return steps;
}

function ModelReply({ call }: { call: Extract<RecordedCall, { type: "agent-model" }> }) {
  if (!call.output) return null;
  return (
    <div
      className="rounded-lg border border-l-4 border-l-conversation bg-surface p-3 text-sm"
      data-testid="model-reply"
    >
      <div className="mb-1 text-xs font-semibold tracking-wide uppercase">
        model reply{" "}
        <span className="font-normal text-muted-foreground normal-case" data-testid="model-call-usage">
          · {formatMs(call.ms)}
          {call.usage
            ? ` · ${call.usage.totalTokens.toLocaleString("en-US")} tokens (${call.usage.inputTokens.toLocaleString("en-US")} in · ${call.usage.outputTokens.toLocaleString("en-US")} out)`
            : ""}
        </span>
      </div>
      <div className="whitespace-pre-wrap break-words">{messageText(call.output)}</div>
    </div>
  );
}

/** "1 sent, 1 a near-miss" */
function sentOrNearMiss(notes: readonly DeletedMemoryNote[]): string {
  const sent = notes.filter((note) => note.sent).length;
  const near = notes.length - sent;
  if (notes.length === 1) return sent === 1 ? "it was sent to the model" : "it was a near-miss, not sent to the model";
  return [
    sent > 0 && `${sent} sent to the model`,
    near > 0 && `${near} ${near === 1 ? "a near-miss" : "near-misses"}, not sent`,
  ]
    .filter(Boolean)
    .join(", ");
}

/** Whether the record still keeps the deleted memories' text (the undo window) or no longer does. */
function DeletedMemoriesNotice({
  deleted,
  dates,
}: {
  deleted: readonly DeletedMemoryNote[];
  dates: Parameters<typeof formatDateTime>[1];
}) {
  if (deleted.length === 0) return null;
  const kept = deleted.filter((note) => note.textKeptUntil !== null);
  const gone = deleted.filter((note) => note.textKeptUntil === null);
  const until = new Date(Math.max(...kept.map((note) => new Date(note.textKeptUntil ?? 0).getTime())));
  const count = (n: number) => (n === 1 ? "A memory" : `${n} memories`);
  return (
    <div
      className="space-y-1 rounded-xl border border-dashed px-4 py-3 text-sm text-muted-foreground"
      data-testid="redaction-notice"
    >
      {kept.length > 0 && (
        <p data-testid="redaction-notice-pending">
          {count(kept.length)} of this record {kept.length === 1 ? "was" : "were"} deleted just now (
          {sentOrNearMiss(kept)}). This record keeps {kept.length === 1 ? "its" : "their"} text until{" "}
          <DateTime value={until} dates={dates} /> so that Undo restores everything; then it is removed.
        </p>
      )}
      {gone.length > 0 && (
        <p data-testid="redaction-notice-gone">
          {count(gone.length)} of this record {gone.length === 1 ? "was" : "were"} deleted since ({sentOrNearMiss(gone)}
          ). This record no longer keeps {gone.length === 1 ? "its" : "their"} text and shows “{"[deleted memory]"}” in
          its place
          {gone.some((note) => note.sent) ? "; the model did receive it when it answered" : ""}. The answer itself is
          part of the conversation and is not rewritten.
        </p>
      )}
    </div>
  );
}

function RetrievalStatus({ retrieval }: { retrieval: DebugView["retrieval"] }) {
  if (retrieval.status === "ok") return <Badge variant="success">ran</Badge>;
  if (retrieval.status === "disabled") return <Badge variant="outline">memory off</Badge>;
  return <Badge variant="danger">failed</Badge>;
}

/** No model answered here: the exchange the extraction read, what it stored, and what its model received. */
function ImportedAnswer({
  data,
  dates,
}: {
  data: NonNullable<Awaited<ReturnType<typeof getImportedExchangeData>>>;
  dates: Parameters<typeof formatDateTime>[1];
}) {
  const { conversation, question, answer, extraction } = data;
  const source = IMPORT_SOURCE_LABELS[conversation.importedFrom];
  return (
    <div className="mx-auto w-full max-w-5xl space-y-5 px-4 py-8 sm:px-6">
      <ScrollToHash />
      <Link
        href={`/chat/${conversation.id}#message-${answer.id}`}
        className="inline-flex items-center gap-1.5 text-sm text-muted-foreground hover:text-foreground"
      >
        <ArrowLeftIcon className="size-4" aria-hidden="true" />
        Back to the chat
      </Link>
      <PageHeader
        title="Inspect this imported answer"
        description={
          <>
            {source} wrote this answer (<DateTime value={answer.createdAt} dates={dates} />) and it was imported, so no
            model here answered it. What Lifeline read from the exchange, what it learned, and what the extraction model
            received are below.
          </>
        }
      />
      <SectionCard
        id="exchange"
        title="What the extraction read"
        description={`This question and answer, with up to ${extractionConfig.previousMessages} earlier messages of “${conversation.title}” as context, read as on the day the question was asked.`}
      >
        <div className="space-y-3 text-sm" data-testid="imported-exchange">
          <div className="rounded-lg border bg-muted/40 p-3">
            <div className="mb-1 text-xs font-semibold tracking-wide uppercase">
              you · <DateTime value={question.createdAt} dates={dates} />
            </div>
            <div className="whitespace-pre-wrap break-words">{question.content}</div>
          </div>
          <div className="rounded-lg border p-3">
            <div className="mb-1 text-xs font-semibold tracking-wide uppercase">{source}</div>
            <div className="whitespace-pre-wrap break-words">{answer.content}</div>
          </div>
        </div>
      </SectionCard>
      <SectionCard
        id="extraction"
        title="What Lifeline learned"
        description="The memory extraction that read this exchange when it was imported."
      >
        <ExtractionPanel extraction={jsonify(extraction)} messageId={answer.id} dates={dates} />
      </SectionCard>
      <ExtractionInput extraction={jsonify(extraction)} />
    </div>
  );
}

export default async function DebugPage({ params }: { params: Params }) {
  const { id } = await params;
  const session = await requireServerSession(`/messages/${id}/debug`);
  if (!UUID.test(id)) notFound();
  // Missing, foreign, not an answer, or no debug record yet: 404.
  const db = await getDb();
  const data = await getDebugPageData(db, { userId: session.id, messageId: id });
  if (!data) {
    const imported = await getImportedExchangeData(db, { userId: session.id, messageId: id });
    if (!imported) notFound();
    return <ImportedAnswer data={imported} dates={await requestDates(session.id)} />;
  }
  const { view, extraction } = data;
  const dates = await requestDates(session.id);

  const trace = view.trace;
  // Memory tools are in the trace; an agent's mailbox tools in the record, between its model calls.
  const steps = modelCallSteps(view.modelInput);
  const calls = steps.map((step) => step.call);
  const toolCalls = trace?.toolCalls ?? [];
  const sent = sentMemories(trace);
  const usage = view.usage;

  return (
    <div className="mx-auto w-full max-w-5xl space-y-5 px-4 py-8 sm:px-6">
      <ScrollToHash />
      <Link
        href={`/chat/${view.conversationId}`}
        className="inline-flex items-center gap-1.5 text-sm text-muted-foreground hover:text-foreground"
      >
        <ArrowLeftIcon className="size-4" aria-hidden="true" />
        Back to the chat
      </Link>
      <PageHeader
        title="Inspect this answer"
        description={
          <>
            What the model received, which memories were considered and why, and what Lifeline learned — answer of{" "}
            <DateTime value={view.createdAt} dates={dates} />.
          </>
        }
      />

      <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <Stat label="Model" hint={view.model.provider}>
          <span className="font-mono">{view.model.id}</span>
        </Stat>
        <Stat label="Mode · temperature">
          {MODE_LABELS[view.mode].label} · {formatScore(view.temperature, 1)}
        </Stat>
        <Stat label="Latency" hint={`first token after ${formatMs(view.timings.timeToFirstTokenMs)}`}>
          {formatMs(view.timings.latencyMs)}
        </Stat>
        <Stat
          label="Tokens"
          hint={`${usage.inputTokens?.toLocaleString("en-US") ?? "—"} in · ${usage.outputTokens?.toLocaleString("en-US") ?? "—"} out`}
        >
          {usage.totalTokens?.toLocaleString("en-US") ?? "—"}
        </Stat>
        <Stat label="Memory retrieval" hint={trace ? `${formatMs(trace.timings.totalMs)} total` : undefined}>
          <span data-testid="retrieval-status">
            <RetrievalStatus retrieval={view.retrieval} />
          </span>
        </Stat>
        <Stat
          label="Memories sent"
          hint={
            <span data-testid="memories-sent-breakdown">
              {sent.length > 0 && sentBreakdown(sent)}
              {toolCalls.length > 0 &&
                ` (${toolCalls.length} memory tool call${toolCalls.length === 1 ? "" : "s"}, ${toolCalls.reduce((n, t) => n + t.returned, 0)} returned)`}
            </span>
          }
        >
          {trace ? sent.length : "—"}
        </Stat>
        <Stat label="Finish reason">{view.finishReason ?? "—"}</Stat>
        <Stat label="Answer status">{view.answer.status}</Stat>
      </dl>

      {view.rating && (
        <p className="flex items-start gap-2 rounded-xl border px-4 py-3 text-sm" data-testid="answer-rating-record">
          {view.rating.rating === "up" ? (
            <ThumbsUpIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          ) : (
            <ThumbsDownIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          )}
          <span>
            <span className="font-medium">You rated this answer {view.rating.rating === "up" ? "good" : "bad"}</span>{" "}
            <span className="text-muted-foreground">
              (<DateTime value={view.rating.updatedAt} dates={dates} />)
            </span>
            {view.rating.reason ? (
              <>
                : <q className="whitespace-pre-wrap">{view.rating.reason}</q>
              </>
            ) : (
              ", without a reason."
            )}{" "}
            <Link href={`/messages/rated?rating=${view.rating.rating}`} className="underline underline-offset-2">
              All {view.rating.rating === "up" ? "good" : "bad"} answers
            </Link>
          </span>
        </p>
      )}

      {view.retrieval.status === "failed" && (
        <p
          role="alert"
          className="flex items-start gap-2 rounded-xl border border-destructive/30 bg-red-50 px-4 py-3 text-sm text-red-900 dark:bg-red-950/40 dark:text-red-200"
        >
          <CircleAlertIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span>
            Memory retrieval failed{trace?.failedStage ? ` at the ${trace.failedStage} stage` : ""}:{" "}
            {view.retrieval.error ?? "unknown error"}. The model answered without a memory section — this is not the
            same as “no memories found”.
          </span>
        </p>
      )}
      {view.error && (
        <p
          role="alert"
          className="rounded-xl border border-destructive/30 bg-red-50 px-4 py-3 text-sm text-red-900 dark:bg-red-950/40 dark:text-red-200"
        >
          The model failed: {view.error}
        </p>
      )}

      <DeletedMemoriesNotice deleted={view.deletedMemories} dates={dates} />

      {view.dictation && (
        <p className="rounded-xl border px-4 py-3 text-sm" data-testid="dictation-record">
          <span className="font-medium">The question was dictated.</span> {view.dictation.model} transcribed{" "}
          {formatBytes(view.dictation.bytes)} of {view.dictation.mediaType}
          {view.dictation.audioSeconds !== null
            ? ` (${view.dictation.audioSeconds.toFixed(1)} s)`
            : view.dictation.recordedMs !== null
              ? ` (${(view.dictation.recordedMs / 1000).toFixed(1)} s recorded)`
              : ""}{" "}
          in {formatMs(view.dictation.latencyMs)}
          {view.dictation.edited ? "; you edited the transcript before sending. It read: " : ", sent as transcribed: "}
          <q className="text-muted-foreground">{view.dictation.transcript}</q>
        </p>
      )}

      <SectionCard id="answer" title="The answer">
        {view.answer.content ? (
          <Markdown className="text-[15px]" dates={dates}>
            {view.answer.content}
          </Markdown>
        ) : (
          <p className="text-sm text-muted-foreground">(empty)</p>
        )}
      </SectionCard>

      <SectionCard
        id="model-input"
        title="What the model received"
        description={
          calls.length > 1
            ? `Captured at the model boundary, after every conversion — not rebuilt. ${calls.length} model calls, in order, with the tool calls between them. Highlighted lines are the memories sent.`
            : "Captured at the model boundary, after every conversion — not rebuilt. Highlighted lines are the memories sent."
        }
      >
        {calls.length === 0 ? (
          <p className="text-sm text-muted-foreground">No model call was recorded for this answer.</p>
        ) : (
          <ModelCallList
            calls={calls}
            memoryLines={trace?.memoryLines ?? []}
            after={(call, index) => (
              <>
                {call.type === "agent-model" && <ModelReply call={call} />}
                {toolCalls
                  .filter((tool) => tool.step === index + 1)
                  .map((tool) => (
                    <ToolCallCard key={tool.toolCallId} call={tool} accessesCount="per answer" />
                  ))}
                {(steps[index]?.agentTools ?? []).map((tool, toolIndex) => (
                  <AgentToolCallCard
                    key={tool.toolCallId ?? `${index}:${toolIndex}`}
                    step={tool}
                    afterModelCall={index + 1}
                  />
                ))}
              </>
            )}
          />
        )}
      </SectionCard>

      {trace && (
        <>
          <SectionCard
            id="candidates"
            title="Memory candidates"
            description="Every memory a retrieval branch returned, its score components, and its fate."
          >
            <CandidateTable trace={trace} />
          </SectionCard>
          <SectionCard id="tokens" title="Token budget" description="Content tokens per section of the prompt.">
            <TokenBudget trace={trace} />
          </SectionCard>
          <SectionCard id="timings" title="Retrieval timings">
            <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
              {(
                [
                  ["Embed the message", trace.timings.embedMs],
                  ["Semantic SQL", trace.timings.semanticSqlMs],
                  ["Conversation SQL", trace.timings.conversationSqlMs],
                  ["Assembly total", trace.timings.totalMs],
                ] as const
              ).map(([label, ms]) => (
                <div key={label}>
                  <dt className="text-xs text-muted-foreground">{label}</dt>
                  <dd className="font-mono tabular-nums">{formatMs(ms)}</dd>
                </div>
              ))}
            </dl>
          </SectionCard>
        </>
      )}

      <SectionCard
        id="extraction"
        title="What Lifeline learned"
        description="The memory extraction that read this question and answer, after the answer was sent."
      >
        <ExtractionPanel
          extraction={extraction ? jsonify(extraction) : null}
          messageId={view.messageId}
          dates={dates}
        />
      </SectionCard>
      <ExtractionInput extraction={extraction ? jsonify(extraction) : null} />
    </div>
  );
}
