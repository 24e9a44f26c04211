/**
 * One chat turn, end to end:
 *   conversation (owner-scoped; created when absent) → save the user message → assembleContext()
 *   → in agent mode, the Gmail agent answers from that context (agent-answer.ts); otherwise
 *   stream the answer (the model wrapped so its exact input is captured at every call) — with
 *   memory on, the model may call the memory tools (search_memories, list_memories) for up to
 *   memoryToolsConfig.maxSteps model calls, each tool call recorded in the trace → on finish,
 *   abort or error: save the assistant message with its status and the debug record → after the
 *   response: enqueue memory extraction for the pair, and title the conversation (settle.ts,
 *   shared by both paths).
 * The answer never waits on extraction or titling, and never fails because of them.
 */

import type { LanguageModelV4 } from "@ai-sdk/provider";
import {
  consumeStream,
  createUIMessageStreamResponse,
  isStepCount,
  type LanguageModelUsage,
  type ModelMessage,
  streamText,
  type TextStreamPart,
  toUIMessageStream,
} from "ai";
import { answerConfig, memoryToolsConfig, modelCallConfig, promptConfig } from "@/core/config";
import { AppError } from "@/core/errors";
import type { Logger } from "@/core/logger";
import { effectiveTemperature, historyTokenBudget, modelCapabilities } from "@/core/model-capabilities";
import { inSpan, recordSpanError, tracer } from "@/core/telemetry";
import type { Db } from "@/db/client";
import { createConversation, getConversation, updateConversation } from "@/db/queries/conversations";
import { cancelPendingSendsBelow, createMessages, listBranch, saveAnswerProgress } from "@/db/queries/messages";
import { claimTranscription } from "@/db/queries/transcriptions";
import { getAccount } from "@/db/queries/users";
import type { MessageNotice, MessageStatus } from "@/db/schema";
import { type CapturedCall, withCapture } from "@/lib/ai/capture";
import type { AiRegistry } from "@/lib/ai/registry";
import type { ExtractionDispatcher } from "@/lib/jobs/extraction-queue";
import { assembleContext } from "@/lib/memory/retrieval/assemble";
import type { AssemblyConfig } from "@/lib/memory/retrieval/assembly-config";
import { memoryTools, type ToolCallTrace } from "@/lib/memory/retrieval/tools";
import { countTokens } from "@/lib/memory/tokens";
import type { ChatBody } from "@/lib/validation/chat";
import { answerWithAgent } from "./agent-answer";
import { answerErrorSentence } from "./answer-error";
import { dictationRecord } from "./dictation";
import { loadBranchThrough, planContinue, planEdit, planRetry, toHistory } from "./history";
import { assertKnownModel } from "./models";
import {
  type AnswerTurn,
  type DebugInput,
  errorText,
  isConnectionDrop,
  MODEL_CONNECTION_DROPPED,
  recordModelCall,
  settleAnswer,
} from "./settle";

export type { TurnMetadata } from "./settle";

export const DEFAULT_TEMPERATURE = 0.7;

export interface ChatTurnInput {
  userId: string;
  body: ChatBody;
  /** Aborts the model call when the client goes away or presses stop. */
  signal: AbortSignal;
  log: Logger;
  /** Where the pair's memory extraction goes once the answer is saved. */
  dispatcher: ExtractionDispatcher;
  /** The retrieval numbers (strategy) in force; default core/config's (lib/runtime.ts reads the setting). */
  assembly?: AssemblyConfig;
}

/** The model for this turn: the request's (must be configured), else the conversation's if still configured, else the default. */
function resolveModelId(ai: AiRegistry, requested: string | undefined, stored: string | null | undefined): string {
  if (requested !== undefined) {
    assertKnownModel(ai, requested);
    return requested;
  }
  return stored && ai.isKnownChatModel(stored) ? stored : ai.config.defaultChatModel;
}

/**
 * A tool call as a stored UI message part (the chat shows "Searched memories: 4 found" from it).
 * The memories' text stays out of the message: the debug record holds it, and a deleted memory's
 * text is redacted there (db/queries/redaction.ts); the part keeps their ids only.
 */
function toolPart(call: ToolCallTrace) {
  const returned = call.memories.filter((memory) => memory.fate === "returned");
  return call.status === "ok"
    ? {
        type: `tool-${call.tool}`,
        toolCallId: call.toolCallId,
        state: "output-available",
        input: call.input,
        output: { memories: returned.map((memory) => ({ id: memory.memoryId })) },
      }
    : {
        type: `tool-${call.tool}`,
        toolCallId: call.toolCallId,
        state: "output-error",
        input: call.input,
        errorText: call.error ?? "failed",
      };
}

export async function runChatTurn(db: Db, ai: AiRegistry, input: ChatTurnInput): Promise<Response> {
  const { userId, body, log } = input;

  // Everything that can reject the request happens before the first write.
  const [existing, account] = await Promise.all([
    body.conversationId ? getConversation(db, { userId, conversationId: body.conversationId }) : null,
    getAccount(db, { userId }),
  ]);
  if (existing?.importedFrom) {
    throw new AppError(
      "conflict:imported_conversation",
      "An imported conversation is read-only: start a new chat to go on from it.",
    );
  }
  const modelId = resolveModelId(ai, body.model, existing?.model);
  // Regenerate and edit work on any message of the conversation: the branch down to it is read
  // (its owner's, of this conversation: else 404) and the new message becomes another version.
  // A new message follows the answer the user sees (`parentMessageId`), read the same way.
  const changedId = body.retryOf ?? body.editOf;
  const throughId = changedId ?? body.parentMessageId;
  const branch =
    existing && throughId
      ? await loadBranchThrough(db, { userId, conversationId: existing.id, messageId: throughId })
      : null;
  const retry = branch && body.retryOf ? planRetry(branch, body.retryOf) : null;
  const edit = branch && body.editOf ? planEdit(branch, body.editOf) : null;
  const shown = branch && body.parentMessageId ? planContinue(branch, body.parentMessageId) : null;
  // A dictated message: its transcription must be the user's (else 404, before anything is written).
  const dictation =
    body.dictationId && body.message !== undefined
      ? await dictationRecord(db, { userId, transcriptionId: body.dictationId, text: body.message })
      : null;

  const conversation =
    existing === null
      ? await createConversation(db, {
          userId,
          mode: body.mode,
          model: body.model ?? null,
          memoryEnabled: account.memoryEnabledDefault,
        })
      : body.mode !== undefined || body.model !== undefined
        ? await updateConversation(db, {
            userId,
            conversationId: existing.id,
            patch: { mode: body.mode ?? existing.mode, model: body.model ?? existing.model },
          })
        : existing;
  const mode = conversation.mode;
  // A model that takes no temperature (core/model-capabilities.ts) answers at its default one.
  const temperature = effectiveTemperature(modelId, body.temperature ?? DEFAULT_TEMPERATURE);

  const question = retry?.userMessage.content ?? body.message ?? "";
  // Independent of the writes below, so started first: embedding the message (awaited in the
  // retrieval, which reports its failure) and reading the history window (the last
  // promptConfig.historyWindow messages of the current branch, each row once; a retry or an edit
  // already read the branch above the message it changes).
  const embedding = conversation.memoryEnabled ? ai.embedText(question) : null;
  embedding?.catch(() => {});
  const earlier = retry?.earlier ?? edit?.earlier ?? shown ?? undefined;
  const history = earlier
    ? Promise.resolve(toHistory(earlier))
    : listBranch(db, { userId, conversationId: conversation.id, limit: promptConfig.historyWindow }).then(toHistory);
  history.catch(() => {});
  // A retry answers its user message again (a new version of the answer); an edit is a new version
  // of the user message, under the same parent; otherwise the message continues the branch the user
  // sees (its last answer, `parentMessageId`), else the current branch.
  // Nothing is deleted: the old versions keep their debug records and extractions. An email the
  // agent prepared in the replaced answer (or below the edited question) and still waiting for
  // approval is cancelled: it can no longer be approved, whichever version the chat then shows.
  const parentMessageId = retry ? retry.userMessage.id : edit ? edit.parentMessageId : body.parentMessageId;
  const replaced =
    branch && changedId
      ? cancelPendingSendsBelow(db, {
          userId,
          messageId: changedId,
          reason: retry ? "its answer was regenerated" : "its question was edited",
        })
      : null;
  // The question (unless a retry asks it again) and the answer's streaming row, in one statement
  // that orders the answer after it (and makes it the conversation's current message, touching the
  // conversation).
  const create = (tx: Db) =>
    createMessages(tx, {
      userId,
      conversationId: conversation.id,
      parentMessageId,
      messages: [
        ...(retry
          ? []
          : [
              {
                role: "user" as const,
                content: question,
                contentTokens: countTokens(question),
                parts: [{ type: "text", text: question }],
              },
            ]),
        { role: "assistant", content: "", model: modelId, status: "streaming" },
      ],
    });
  // A dictated question claims its transcription in the same transaction: a transcription another
  // send claimed first (a race the check above cannot see) is a 409 that leaves no message behind.
  const created = dictation
    ? db.transaction(async (tx) => {
        const rows = await create(tx);
        const question = rows[0];
        if (question) {
          await claimTranscription(tx, { userId, transcriptionId: dictation.transcriptionId, messageId: question.id });
        }
        return rows;
      })
    : create(db);
  const [userMessage, assistantMessage] = await Promise.all([created, replaced]).then(([created]) => {
    const [first, second] = created;
    const user = retry?.userMessage ?? first;
    const assistant = retry ? first : second;
    if (!user || !assistant) throw new Error("the turn's messages were not written");
    return [user, assistant] as const;
  });

  const { messages, trace } = await inSpan(
    "chat.retrieval",
    { "lifeline.memory_enabled": conversation.memoryEnabled, "lifeline.mode": mode },
    async (span) => {
      const context = await assembleContext(db, {
        userId,
        userName: account.name,
        conversationId: conversation.id,
        message: question,
        // Read alongside the writes: the turn's own rows, if the read saw them, are not history.
        history: (await history).filter((m) => m.id !== userMessage.id && m.id !== assistantMessage.id),
        mode,
        memoryEnabled: conversation.memoryEnabled,
        embed: (text) => (embedding && text === question ? embedding : ai.embedText(text)),
        embeddingModel: ai.describeProviders().embedder,
        config: input.assembly,
        historyTokenBudget: historyTokenBudget(modelId, {
          offline: ai.config.provider === "offline",
          unknownModelContextWindow: ai.config.unknownModelContextWindow,
        }),
      });
      span.setAttribute("lifeline.retrieval.status", context.trace.status);
      return context;
    },
  );
  if (trace.status === "failed") log.warn({ error: trace.error, stage: trace.failedStage }, "memory retrieval failed");

  const turn: AnswerTurn = {
    db,
    ai,
    log,
    dispatcher: input.dispatcher,
    userId,
    conversation: { id: conversation.id, memoryEnabled: conversation.memoryEnabled },
    userMessageId: userMessage.id,
    assistantMessageId: assistantMessage.id,
    modelId,
    mode,
    temperature,
    trace,
    dictation,
    signal: input.signal,
    metadata: {
      conversationId: conversation.id,
      userMessageId: userMessage.id,
      assistantMessageId: assistantMessage.id,
      model: modelId,
      mode,
      retrievalStatus: trace.status,
    },
  };
  return mode === "agent" ? answerWithAgent(turn, messages) : answerWithText(turn, messages);
}

/**
 * Why an answer that finished is not whole, from its finish reason (the AI SDK's, and the
 * server's own): "length" (the output limit), "content-filter" (the provider's filter; OpenAI's
 * `stop` with a refusal is mapped to content-filter by the SDK: that is a refusal), or a stream
 * that closed without any finish reason (the SDK's "interrupted").
 */
export function finishNotice(
  finishReason: string | undefined,
  rawFinishReason: string | undefined,
): MessageNotice | null {
  if (finishReason === "length") return "length";
  if (finishReason === "content-filter") return rawFinishReason === "stop" ? "refusal" : "content-filter";
  if (finishReason === "interrupted") return "no-finish";
  return null;
}

/** The text path: the chat model streams the answer, with the memory tools when memory is on. */
function answerWithText(turn: AnswerTurn, messages: ModelMessage[]): Response {
  const { db, ai, log, userId, trace, metadata } = turn;
  const baseModel: LanguageModelV4 = ai.getLanguageModel(turn.modelId);
  const capabilities = modelCapabilities(turn.modelId);
  const calls: CapturedCall[] = [];
  const started = performance.now();
  let firstTokenMs: number | null = null;
  let text = "";
  let settled = false;
  // The debug record's write at the latest model call (withCapture starts it with the call).
  let recorded: Promise<void> = Promise.resolve();
  // Memory tools only when memory is on for this conversation; each call lands in the trace.
  const toolCalls: ToolCallTrace[] = [];
  const tools = turn.conversation.memoryEnabled
    ? memoryTools(db, {
        userId,
        retrieval: trace.config.retrieval,
        embed: (text) => ai.embedText(text),
        embeddingModel: ai.describeProviders().embedder,
        now: () => new Date(),
        counted: new Set(trace.accessCountedIds ?? []),
        record: (call) => toolCalls.push(call),
        step: () => calls.length,
      })
    : undefined;

  const debugInput = (): DebugInput => ({
    modelInput: calls,
    trace: tools ? { ...trace, toolCalls } : trace,
    provider: baseModel.provider,
    modelId: baseModel.modelId,
  });

  // The answer so far, saved at most every answerConfig.progressIntervalMs: a crash keeps it.
  let progressSavedAt = performance.now();
  const saveProgress = () => {
    progressSavedAt = performance.now();
    void saveAnswerProgress(db, { userId, messageId: turn.assistantMessageId, content: text }).catch((error: unknown) =>
      log.warn({ err: error, messageId: turn.assistantMessageId }, "could not save the answer's progress"),
    );
  };

  // The model call, from the request to the last token (or the abort or error): its own span.
  const modelSpan = tracer().startSpan("chat.model", {
    attributes: { "gen_ai.request.model": turn.modelId, "gen_ai.system": baseModel.provider },
  });

  /** Saves the outcome once, whichever of finish / abort / error comes first. */
  const settle = async (
    status: Exclude<MessageStatus, "streaming">,
    outcome: {
      usage?: LanguageModelUsage;
      finishReason?: string;
      error?: string;
      notice?: MessageNotice | null;
      extractPartial?: boolean;
    },
  ) => {
    if (settled) return;
    settled = true;
    modelSpan.setAttributes({
      "lifeline.answer.status": status,
      "gen_ai.usage.input_tokens": outcome.usage?.inputTokens ?? 0,
      "gen_ai.usage.output_tokens": outcome.usage?.outputTokens ?? 0,
      ...(outcome.finishReason ? { "gen_ai.response.finish_reasons": [outcome.finishReason] } : {}),
    });
    if (outcome.error) recordSpanError(modelSpan, new Error(outcome.error));
    modelSpan.end();
    // An abort can come while the record of the call is still being written: the outcome goes after it.
    await recorded;
    await settleAnswer(turn, debugInput(), {
      ...outcome,
      status,
      text,
      parts: [...toolCalls.map(toolPart), ...(text ? [{ type: "text", text }] : [])],
      timeToFirstTokenMs: firstTokenMs,
      latencyMs: Math.round(performance.now() - started),
    });
  };

  const result = streamText({
    model: withCapture(baseModel, calls, () => {
      recorded = recordModelCall(turn, debugInput());
      return recorded;
    }),
    messages,
    // The only system message is the one assembleContext built; user text never becomes one.
    allowSystemInMessages: true,
    tools,
    stopWhen: isStepCount(memoryToolsConfig.maxSteps),
    // The last call allowed gets no tools, so the answer never ends on a tool call without text.
    prepareStep: ({ stepNumber }) =>
      tools && stepNumber >= memoryToolsConfig.maxSteps - 1 ? { activeTools: [] } : undefined,
    // What this model id accepts (core/model-capabilities.ts): no temperature for a reasoning model,
    // and its instructions in the role it reads.
    ...(capabilities.temperature ? { temperature: turn.temperature } : {}),
    providerOptions: { openai: { systemMessageMode: capabilities.systemRole } },
    abortSignal: turn.signal,
    // A bound on the whole answer and on the model's silences (core/config.ts modelCallConfig).
    timeout: { totalMs: modelCallConfig.answerTimeoutMs, chunkMs: modelCallConfig.answerChunkTimeoutMs },
    onChunk: ({ chunk }) => {
      if (chunk.type !== "text-delta") return;
      if (firstTokenMs === null) firstTokenMs = Math.round(performance.now() - started);
      text += chunk.text;
      if (performance.now() - progressSavedAt >= answerConfig.progressIntervalMs) saveProgress();
    },
    onEnd: async ({ usage, finishReason, rawFinishReason }) => {
      await settle("complete", { usage, finishReason, notice: finishNotice(finishReason, rawFinishReason) });
    },
    onAbort: async () => {
      // Not the client's stop: the timeout above ended the call.
      if (!turn.signal.aborted) {
        await settle("error", { error: "the model took too long to answer", finishReason: "timeout" });
        return;
      }
      await settle("aborted", {});
    },
    // An error part (a provider's in-stream error event): settled where the part passes through the
    // stream below, after the text that came before it.
    onError: ({ error }) => {
      log.warn({ err: error, messageId: turn.assistantMessageId }, "the model failed mid-answer");
    },
  });

  // A connection that drops mid-answer (the model's server or a proxy closes the socket) errors the
  // stream itself, past every callback above: caught here, the answer is saved `error` at once with
  // its text so far, and the client gets an error part (the chat offers Retry) instead of a torn stream.
  const reader = result.stream.getReader();
  const guarded = new ReadableStream<TextStreamPart<NonNullable<typeof tools>>>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        if (value.type === "error") await settle("error", { error: errorText(value.error), finishReason: "error" });
        controller.enqueue(value);
      } catch (error) {
        const dropped = isConnectionDrop(error);
        log.warn({ err: error, messageId: turn.assistantMessageId }, "the model's stream failed");
        await settle("error", {
          error: dropped ? MODEL_CONNECTION_DROPPED : errorText(error),
          finishReason: "error",
          extractPartial: dropped,
        });
        controller.enqueue({ type: "error", error: dropped ? new Error(MODEL_CONNECTION_DROPPED) : error });
        controller.close();
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });

  const stream = toUIMessageStream({
    stream: guarded,
    tools,
    generateMessageId: () => turn.assistantMessageId,
    messageMetadata: ({ part }) => {
      if (part.type === "start") return { ...metadata };
      if (part.type === "finish") {
        return { ...metadata, usage: part.totalUsage, latencyMs: Math.round(performance.now() - started) };
      }
      return undefined;
    },
    onError: (error) => answerErrorSentence(errorText(error)),
  });
  return createUIMessageStreamResponse({
    stream,
    headers: { "x-conversation-id": turn.conversation.id, "cache-control": "no-store" },
    // Keep consuming when the client disconnects, so abort and finish are always saved.
    consumeSseStream: consumeStream,
  });
}
