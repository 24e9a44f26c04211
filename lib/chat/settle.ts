/**
 * How a chat turn's answer is recorded, whichever way it was produced (the text model in
 * lib/chat/turn.ts, or the Gmail agent in lib/chat/agent-answer.ts): the debug record written when the
 * first model call starts and completed at the end, and the outcome saved once — the message's
 * text, parts and status together with the pair's extraction row and the conversation's title
 * job (one transaction: the outboxes of lib/jobs/extraction-queue.ts and lib/chat/title.ts), the
 * completed debug record, then (after the response) the extraction handed to its runner and the
 * conversation's title.
 */
import type { LanguageModelUsage } from "ai";
import { answerConfig } from "@/core/config";
import { faultPoint } from "@/core/faults";
import type { Logger } from "@/core/logger";
import { inSpan } from "@/core/telemetry";
import { truncateChars } from "@/core/text";
import type { Db } from "@/db/client";
import { retryTransient } from "@/db/queries/errors";
import { INTERRUPTED_ERROR } from "@/db/queries/interrupted-answers";
import { finishMessage, getMessage } from "@/db/queries/messages";
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
  /** On finish only. */
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
  /** The user message came from dictation (lib/chat/dictation.ts); null when typed. */
  dictation: DictationRecord | null;
  /** Aborts the answer when the client goes away or presses stop. */
  signal: AbortSignal;
  metadata: TurnMetadata;
}

/** The debug record's part known when the model is called: what it received, and why. */
export interface DebugInput {
  modelInput: unknown[];
  trace: unknown;
  provider: string;
  modelId: string;
}

export interface AnswerOutcome {
  status: Exclude<MessageStatus, "streaming">;
  text: string;
  parts: unknown[];
  usage?: LanguageModelUsage;
  finishReason?: string;
  error?: string;
  /** Why an answer that ended is not whole (MESSAGE_NOTICES), shown under it. */
  notice?: MessageNotice | null;
  /**
   * An `error` answer whose text so far is kept and whose pair is extracted like a whole answer's
   * (the model connection dropped mid-answer: what the user said still stands, as for an answer a
   * stopped server interrupted, lib/chat/interrupted.ts).
   */
  extractPartial?: boolean;
  timeToFirstTokenMs: number | null;
  latencyMs: number;
}

export const MODEL_CONNECTION_DROPPED = "the connection to the model dropped before the answer was finished";

/**
 * Whether `error` is the model's HTTP connection ending early (the socket closed mid-stream:
 * undici's "terminated" / UND_ERR_SOCKET, a reset), on the error itself or on its causes.
 */
export function isConnectionDrop(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && typeof e === "object" && depth < 6; depth++) {
    const { name, message, code } = e as { name?: unknown; message?: unknown; code?: unknown };
    if (code === "UND_ERR_SOCKET" || code === "ECONNRESET") return true;
    if (name === "TypeError" && message === "terminated") return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * A model failure as one line for the user and the store. An Error gives its message; a plain
 * object — what an OpenAI-compatible server sends as an in-stream error event, `{"error": {…}}`
 * — gives its `message` (and its `code` or `type`), never "[object Object]".
 */
export function errorText(error: unknown): string {
  if (isConnectionDrop(error)) return MODEL_CONNECTION_DROPPED;
  return truncateChars(describeError(error), 500);
}

function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === "object" && error !== null) {
    const inner = (error as { error?: unknown }).error;
    if (typeof inner === "object" && inner !== null) return describeError(inner);
    const { message, code, type } = error as { message?: unknown; code?: unknown; type?: unknown };
    const kind = typeof code === "string" ? code : typeof type === "string" ? type : null;
    if (typeof message === "string") return kind ? `${message} (${kind})` : message;
    try {
      return JSON.stringify(error);
    } catch {
      return String(error);
    }
  }
  return String(error);
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

/**
 * Writes the debug record as it stands when a model call starts: a crash before the answer settles
 * still leaves the record of what the model received (lib/chat/interrupted.ts completes it).
 */
export async function recordModelCall(turn: AnswerTurn, input: DebugInput): Promise<void> {
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
 * Saves how the answer ended — the message and, unless it failed, the pair's extraction row and
 * the title job (while the title is the default) in one transaction, so no final answer is ever
 * without its extraction (an answer cut by a dropped connection keeps its partial text and counts
 * as said); then its completed debug record — and after the response hands the extraction to its
 * runner and titles the conversation. A process stopped before the hand-over leaves the rows for
 * the sweeps.
 */
export async function settleAnswer(turn: AnswerTurn, input: DebugInput, outcome: AnswerOutcome): Promise<void> {
  const { db, userId } = turn;
  // A failed answer is not extracted — except one cut by a dropped connection, whose partial text
  // the user saw (it counts as said, like an answer interrupted by a crash).
  const extracts = outcome.status !== "error" || Boolean(outcome.extractPartial && outcome.text);
  // The hand-over of a queued row, once its transaction has committed.
  const after: { dispatch?: () => Promise<void> } = {};
  let settledBySweep = false;
  try {
    // Every write in it is idempotent, so a transaction whose commit was lost can be run again.
    await retryTransient(
      () =>
        db.transaction(async (tx) => {
          const finished = await finishMessage(tx, {
            userId,
            messageId: turn.assistantMessageId,
            content: outcome.text,
            contentTokens: countTokens(outcome.text),
            parts: outcome.parts,
            status: outcome.status,
            error: outcome.error ?? null,
            notice: outcome.notice ?? null,
          });
          // Not streaming any more: the sweep marked it interrupted — or this save's own earlier
          // try committed although its commit was reported lost (then the writes below are no-ops).
          settledBySweep =
            !finished &&
            (await getMessage(tx, { userId, messageId: turn.assistantMessageId })).error === INTERRUPTED_ERROR;
          if (settledBySweep || !extracts) return;
          const recorded = await recordExtraction(
            tx,
            {
              userId,
              conversationId: turn.conversation.id,
              userMessageId: turn.userMessageId,
              assistantMessageId: turn.assistantMessageId,
              memoryEnabled: turn.conversation.memoryEnabled,
            },
            turn.dispatcher.kind,
          );
          if (needsDispatch(recorded))
            after.dispatch = () => dispatchExtraction(db, recorded.extraction, turn.dispatcher);
          await markTitleDue(tx, { userId, conversationId: turn.conversation.id });
        }),
      answerConfig.finalSaveRetryDelaysMs,
    );
  } catch (error) {
    turn.log.error({ err: error, messageId: turn.assistantMessageId }, "could not save the chat turn");
    return;
  }
  if (settledBySweep) {
    // Its stored text, status, debug record and extraction are the sweep's: left as they are.
    turn.log.warn(
      { messageId: turn.assistantMessageId, status: outcome.status },
      "an answer finished after the interrupted-answer sweep had settled it: the late finish was not saved",
    );
    return;
  }
  try {
    await inSpan("chat.debug_write", { "lifeline.debug.phase": "settled" }, () =>
      retryTransient(
        () =>
          savePromptDebug(db, {
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
    // The answer and its rows are saved: the hand-over below still runs.
    turn.log.error({ err: error, messageId: turn.assistantMessageId }, "could not complete the debug record");
  }
  if (!extracts) return;
  faultPoint("crash-after-answer-final");
  // Apart: the in-process runner's hand-over resolves only once the user's earlier extractions
  // have run, and the title must not wait for them.
  if (after.dispatch) runAfterResponse(after.dispatch);
  runAfterResponse(() => runTitleJob(db, turn.ai, { userId, conversationId: turn.conversation.id }));
}
