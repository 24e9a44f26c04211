// The text path: the chat model streams the answer, with the memory tools when memory is on (settle.ts records it).
import {
  consumeStream,
  createUIMessageStreamResponse,
  isStepCount,
  type ModelMessage,
  streamText,
  type TextStreamPart,
  toUIMessageStream,
} from "ai";
import { memoryToolsConfig, modelCallConfig } from "@/core/config";
import { modelCapabilities } from "@/core/model-capabilities";
import { tracer } from "@/core/telemetry";
import type { MessageNotice } from "@/db/schema";
import { type CapturedCall, withCapture } from "@/lib/ai/capture";
import { memoryTools, type ToolCallTrace } from "@/lib/memory/retrieval/tools";
import { answerErrorSentence } from "./answer-error";
import { errorText, isConnectionDrop, MODEL_CONNECTION_DROPPED } from "./model-error";
import { type AnswerEnding, AnswerRecord, type AnswerTurn } from "./settle";

type MemoryTools = ReturnType<typeof memoryTools>;
type Part = TextStreamPart<MemoryTools>;

interface TextAnswer {
  turn: AnswerTurn;
  record: AnswerRecord;
  tools: MemoryTools | undefined;
  text: string;
}

/** Why a finished answer is not whole. OpenAI's `stop` with a refusal reaches us as content-filter: a refusal. */
export function finishNotice(
  finishReason: string | undefined,
  rawFinishReason: string | undefined,
): MessageNotice | null {
  if (finishReason === "length") return "length";
  if (finishReason === "content-filter") return rawFinishReason === "stop" ? "refusal" : "content-filter";
  if (finishReason === "interrupted") return "no-finish";
  return null;
}

export function answerWithText(turn: AnswerTurn, messages: ModelMessage[]): Response {
  const model = turn.ai.getLanguageModel(turn.modelId);
  const calls: CapturedCall[] = [];
  const toolCalls: ToolCallTrace[] = [];
  const tools = turn.conversation.memoryEnabled ? toolsFor(turn, calls, toolCalls) : undefined;
  const span = tracer().startSpan("chat.model", {
    attributes: { "gen_ai.request.model": turn.modelId, "gen_ai.system": model.provider },
  });
  const answer: TextAnswer = {
    turn,
    tools,
    text: "",
    record: new AnswerRecord(turn, span, {
      debugInput: () => ({
        modelInput: calls,
        trace: tools ? { ...turn.trace, toolCalls } : turn.trace,
        provider: model.provider,
        modelId: model.modelId,
      }),
      content: () => ({
        text: answer.text,
        parts: [...toolCalls.map(toolPart), ...(answer.text ? [{ type: "text", text: answer.text }] : [])],
      }),
    }),
  };
  const captured = withCapture(model, calls, () => answer.record.modelCall());
  const result = streamAnswer(answer, captured, messages);
  return respond(answer, guard(answer, result));
}

function toolsFor(turn: AnswerTurn, calls: CapturedCall[], toolCalls: ToolCallTrace[]): MemoryTools {
  return memoryTools(turn.db, {
    userId: turn.userId,
    retrieval: turn.trace.config.retrieval,
    embed: (text) => turn.ai.embedText(text),
    embeddingModel: turn.ai.describeProviders().embedder,
    now: () => new Date(),
    counted: new Set(turn.trace.accessCountedIds ?? []),
    record: (call) => toolCalls.push(call),
    step: () => calls.length,
  });
}

/** A tool call as a stored part: memory ids only, as a deleted memory's text is redacted from the debug record alone. */
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

function settle(answer: TextAnswer, ending: AnswerEnding): Promise<void> {
  const finishReasons = ending.finishReason ? { "gen_ai.response.finish_reasons": [ending.finishReason] } : {};
  return answer.record.settle(ending, finishReasons);
}

function streamAnswer(answer: TextAnswer, model: ReturnType<typeof withCapture>, messages: ModelMessage[]) {
  const { turn, tools } = answer;
  const capabilities = modelCapabilities(turn.modelId);
  return streamText({
    model,
    messages,
    // The only system message is the one assembleContext built; user text never becomes one.
    allowSystemInMessages: true,
    tools,
    stopWhen: isStepCount(memoryToolsConfig.maxSteps),
    // The last call allowed gets no tools, so the answer never ends on a tool call without text.
    prepareStep: ({ stepNumber }) =>
      tools && stepNumber >= memoryToolsConfig.maxSteps - 1 ? { activeTools: [] } : undefined,
    // A reasoning model takes no temperature, and reads its instructions in its own role.
    ...(capabilities.temperature ? { temperature: turn.temperature } : {}),
    providerOptions: { openai: { systemMessageMode: capabilities.systemRole } },
    abortSignal: turn.signal,
    timeout: { totalMs: modelCallConfig.answerTimeoutMs, chunkMs: modelCallConfig.answerChunkTimeoutMs },
    onChunk: ({ chunk }) => {
      if (chunk.type !== "text-delta") return;
      answer.record.output();
      answer.text += chunk.text;
      answer.record.progress();
    },
    onEnd: async ({ usage, finishReason, rawFinishReason }) => {
      await settle(answer, {
        status: "complete",
        usage,
        finishReason,
        notice: finishNotice(finishReason, rawFinishReason),
      });
    },
    onAbort: async () => {
      // Not the client's stop: the timeout above ended the call.
      if (!turn.signal.aborted) {
        await settle(answer, { status: "error", error: "the model took too long to answer", finishReason: "timeout" });
        return;
      }
      await settle(answer, { status: "aborted" });
    },
    // An in-stream error part is settled in guard(), after the text before it.
    onError: ({ error }) => {
      turn.log.warn({ err: error, messageId: turn.assistantMessageId }, "the model failed mid-answer");
    },
  });
}

/** A dropped connection errors the stream past every callback: saved `error` here, and sent as an error part. */
function guard(answer: TextAnswer, result: ReturnType<typeof streamAnswer>): ReadableStream<Part> {
  const { turn } = answer;
  const reader = result.stream.getReader();
  return new ReadableStream<Part>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        if (value.type === "error") {
          await settle(answer, { status: "error", error: errorText(value.error), finishReason: "error" });
        }
        controller.enqueue(value);
      } catch (error) {
        const dropped = isConnectionDrop(error);
        turn.log.warn({ err: error, messageId: turn.assistantMessageId }, "the model's stream failed");
        await settle(answer, {
          status: "error",
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
}

function respond(answer: TextAnswer, stream: ReadableStream<Part>): Response {
  const { turn, tools, record } = answer;
  const messages = toUIMessageStream({
    stream,
    tools,
    generateMessageId: () => turn.assistantMessageId,
    messageMetadata: ({ part }) => {
      if (part.type === "start") return { ...turn.metadata };
      if (part.type === "finish") return { ...turn.metadata, usage: part.totalUsage, latencyMs: record.elapsedMs() };
      return undefined;
    },
    onError: (error) => answerErrorSentence(errorText(error)),
  });
  return createUIMessageStreamResponse({
    stream: messages,
    headers: { "x-conversation-id": turn.conversation.id, "cache-control": "no-store" },
    // Keep consuming when the client disconnects, so abort and finish are always saved.
    consumeSseStream: consumeStream,
  });
}
