// How an answer is recorded, whichever path produced it (text-answer.ts, agent-answer.ts): see AnswerRecord.
import type { LanguageModelUsage } from "ai";
import { answerConfig } from "@/core/config";
import { faultPoint } from "@/core/faults";
import type { Logger } from "@/core/logger";
import { type Attributes, inSpan, recordSpanError, type Span } from "@/core/telemetry";
import type { Db } from "@/db/client";
import { retryTransient } from "@/db/queries/errors";
import { INTERRUPTED_ERROR } from "@/db/queries/interrupted-answers";
import { finishMessage, getMessage, saveAnswerProgress } from "@/db/queries/messages";
import { type NewPromptDebug, savePromptDebug } from "@/db/queries/prompt-debug";
import { markTitleDue } from "@/db/queries/title-jobs";
import type { ChatMode, MessageNotice, MessageStatus } from "@/db/schema";
import type { AiRegistry } from "@/lib/ai/registry";
import {
  dispatchExtraction,
  type ExtractionDispatcher,
  needsDispatch,
  recordExtraction,
  runAfterResponse,
} from "@/lib/jobs/extraction-queue";
import type { ContextTrace } from "@/lib/memory/retrieval/trace";
import { countTokens } from "@/lib/memory/tokens";
import type { DictationRecord } from "./dictation";
import { runTitleJob } from "./title";

export interface TurnMetadata {
  conversationId: string;
  userMessageId: string;
  assistantMessageId: string;
  model: string;
  mode: ChatMode;
  retrievalStatus: string;
  usage?: LanguageModelUsage;
  latencyMs?: number;
}

/** A turn once its context is assembled: everything either answer path needs. */
export interface AnswerTurn {
  db: Db;
  ai: AiRegistry;
  log: Logger;
  dispatcher: ExtractionDispatcher;
  userId: string;
  conversation: { id: string; memoryEnabled: boolean };
  userMessageId: string;
  assistantMessageId: string;
  modelId: string;
  mode: ChatMode;
  temperature: number;
  trace: ContextTrace;
  dictation: DictationRecord | null;
  signal: AbortSignal;
  /** Ends the turn's count in flight (in-flight.ts), once it is settled. */
  endTurn: () => void;
  metadata: TurnMetadata;
}

/** The debug record's part known when the model is called: what it received, and why. */
export interface DebugInput {
  modelInput: unknown[];
  trace: unknown;
  provider: string;
  modelId: string;
}

export interface AnswerContent {
  text: string;
  parts: unknown[];
}

export interface AnswerEnding {
  status: Exclude<MessageStatus, "streaming">;
  usage?: LanguageModelUsage;
  finishReason?: string;
  error?: string;
  /** Why an answer that ended is not whole (MESSAGE_NOTICES), shown under it. */
  notice?: MessageNotice | null;
  /** An `error` answer (a dropped connection) whose partial text counts as said: its pair is extracted. */
  extractPartial?: boolean;
}

export interface AnswerOutcome extends AnswerEnding, AnswerContent {
  timeToFirstTokenMs: number | null;
  latencyMs: number;
}

/**
 * One answer being recorded: the debug record written as each model call starts (a crash still leaves what the model
 * received), the progress, and `settle`, once, whichever ending comes first — after the latest call's debug write,
 * which an abort can overtake.
 */
export class AnswerRecord {
  private settled = false;
  private written: Promise<void> = Promise.resolve();
  private firstOutputMs: number | null = null;
  private progressSavedAt = performance.now();

  constructor(
    private readonly turn: AnswerTurn,
    private readonly span: Span,
    private readonly read: { debugInput: () => DebugInput; content: () => AnswerContent },
    private readonly started = performance.now(),
  ) {}

  elapsedMs(): number {
    return Math.round(performance.now() - this.started);
  }

  output(): void {
    this.firstOutputMs ??= this.elapsedMs();
  }

  modelCall(): Promise<void> {
    this.written = recordModelCall(this.turn, this.read.debugInput());
    return this.written;
  }

  /** Saves the text so far, throttled unless `now`: the interrupted-answer sweep reads it, and a crash keeps it. */
  progress(now = false): void {
    if (!now && performance.now() - this.progressSavedAt < answerConfig.progressIntervalMs) return;
    this.progressSavedAt = performance.now();
    const { db, userId, assistantMessageId: messageId, log } = this.turn;
    void saveAnswerProgress(db, { userId, messageId, content: this.read.content().text }).catch((error: unknown) =>
      log.warn({ err: error, messageId }, "could not save the answer's progress"),
    );
  }

  async settle(ending: AnswerEnding, attributes: Attributes = {}): Promise<void> {
    if (this.settled) return;
    this.settled = true;
    this.span.setAttributes({
      "lifeline.answer.status": ending.status,
      "gen_ai.usage.input_tokens": ending.usage?.inputTokens ?? 0,
      "gen_ai.usage.output_tokens": ending.usage?.outputTokens ?? 0,
      ...attributes,
    });
    if (ending.error) recordSpanError(this.span, new Error(ending.error));
    this.span.end();
    try {
      await this.written;
      await settleAnswer(this.turn, this.read.debugInput(), {
        ...ending,
        ...this.read.content(),
        timeToFirstTokenMs: this.firstOutputMs,
        latencyMs: this.elapsedMs(),
      });
    } finally {
      this.turn.endTurn();
    }
  }
}

function debugRecord(turn: AnswerTurn, input: DebugInput): NewPromptDebug {
  return {
    userId: turn.userId,
    conversationId: turn.conversation.id,
    messageId: turn.assistantMessageId,
    modelInput: input.modelInput,
    trace: input.trace,
    provider: input.provider,
    modelId: input.modelId,
    mode: turn.mode,
    temperature: turn.temperature,
    retrievalStatus: turn.trace.status,
    retrievalError: turn.trace.error,
    dictation: turn.dictation,
  };
}

async function recordModelCall(turn: AnswerTurn, input: DebugInput): Promise<void> {
  try {
    await inSpan("chat.debug_write", { "lifeline.debug.phase": "model-call" }, () =>
      savePromptDebug(turn.db, debugRecord(turn, input)),
    );
  } catch (error) {
    turn.log.error(
      { err: error, messageId: turn.assistantMessageId },
      "could not write the debug record at the model call",
    );
  }
}

/**
 * The message, with (unless it failed) the pair's extraction row and the title job in one transaction, so no final
 * answer is without its extraction; then the debug record; after the response, the hand-over and the title.
 */
export async function settleAnswer(turn: AnswerTurn, input: DebugInput, outcome: AnswerOutcome): Promise<void> {
  // An answer cut by a dropped connection counts as said, like one interrupted by a crash.
  const extracts = outcome.status !== "error" || Boolean(outcome.extractPartial && outcome.text);
  let saved: FinalSave;
  try {
    saved = await saveFinal(turn, outcome, extracts);
  } catch (error) {
    turn.log.error({ err: error, messageId: turn.assistantMessageId }, "could not save the chat turn");
    return;
  }
  if (saved.settledBySweep) {
    turn.log.warn(
      { messageId: turn.assistantMessageId, status: outcome.status },
      "an answer finished after the interrupted-answer sweep had settled it: the late finish was not saved",
    );
    return;
  }
  await completeDebugRecord(turn, input, outcome);
  if (!extracts) return;
  faultPoint("crash-after-answer-final");
  // Apart: the runner's hand-over waits for the user's earlier extractions; the title must not.
  if (saved.dispatch) runAfterResponse(saved.dispatch);
  const { db, ai, userId } = turn;
  runAfterResponse(() => runTitleJob(db, ai, { userId, conversationId: turn.conversation.id }));
}

interface FinalSave {
  settledBySweep: boolean;
  dispatch?: () => Promise<void>;
}

function saveFinal(turn: AnswerTurn, outcome: AnswerOutcome, extracts: boolean): Promise<FinalSave> {
  const { db, userId, assistantMessageId: messageId } = turn;
  // Every write in it is idempotent, so a transaction whose commit was lost can be run again.
  return retryTransient(
    () =>
      db.transaction(async (tx): Promise<FinalSave> => {
        const finished = await finishMessage(tx, {
          userId,
          messageId,
          content: outcome.text,
          contentTokens: countTokens(outcome.text),
          parts: outcome.parts,
          status: outcome.status,
          error: outcome.error ?? null,
          notice: outcome.notice ?? null,
        });
        // Not streaming: the sweep settled it — or this save's earlier try committed (the writes below are no-ops).
        const settledBySweep = !finished && (await getMessage(tx, { userId, messageId })).error === INTERRUPTED_ERROR;
        if (settledBySweep || !extracts) return { settledBySweep };
        const recorded = await recordExtraction(
          tx,
          {
            userId,
            conversationId: turn.conversation.id,
            userMessageId: turn.userMessageId,
            assistantMessageId: messageId,
            memoryEnabled: turn.conversation.memoryEnabled,
          },
          turn.dispatcher.kind,
        );
        await markTitleDue(tx, { userId, conversationId: turn.conversation.id });
        return needsDispatch(recorded)
          ? { settledBySweep, dispatch: () => dispatchExtraction(db, recorded.extraction, turn.dispatcher) }
          : { settledBySweep };
      }),
    answerConfig.finalSaveRetryDelaysMs,
  );
}

async function completeDebugRecord(turn: AnswerTurn, input: DebugInput, outcome: AnswerOutcome): Promise<void> {
  try {
    await inSpan("chat.debug_write", { "lifeline.debug.phase": "settled" }, () =>
      retryTransient(
        () =>
          savePromptDebug(turn.db, {
            ...debugRecord(turn, input),
            inputTokens: outcome.usage?.inputTokens ?? null,
            outputTokens: outcome.usage?.outputTokens ?? null,
            totalTokens: outcome.usage?.totalTokens ?? null,
            timeToFirstTokenMs: outcome.timeToFirstTokenMs,
            latencyMs: outcome.latencyMs,
            finishReason: outcome.finishReason ?? (outcome.status === "aborted" ? "aborted" : null),
            error: outcome.error ?? null,
          }),
        answerConfig.finalSaveRetryDelaysMs,
      ),
    );
  } catch (error) {
    turn.log.error({ err: error, messageId: turn.assistantMessageId }, "could not complete the debug record");
  }
}
