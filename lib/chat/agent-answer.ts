/**
 * Agent mode's answer to a chat turn: the Gmail agent (graph.ts) runs on the turn's assembled
 * context — the same system message with the memory lines and the same token-budgeted history
 * the text path sends — and its steps stream into the chat as message parts (each tool call with
 * its arguments and a summary of its result, the approval card of a prepared send, the answer).
 *
 * The debug record keeps every step in order, captured at the model boundary by the recorder
 * (a LangChain callback): each model call's exact input and output, each tool call's arguments and
 * result. It is written when the first model call starts and completed when the answer settles,
 * as on the text path (settle.ts), which also saves the message and, after the response,
 * runs the pair's extraction (the user's message and the agent's final answer) and the title.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { consumeStream, createUIMessageStream, createUIMessageStreamResponse, type ModelMessage } from "ai";
import { agentConfig, answerConfig } from "@/core/config";
import { recordSpanError, tracer } from "@/core/telemetry";
import { saveAnswerProgress } from "@/db/queries/messages";
import type { MessageNotice } from "@/db/schema";
import { buildAgentGraph } from "@/lib/agent/graph";
import { googleClient, mailboxForUser } from "@/lib/agent/mailbox";
import { toLangChainMessages } from "@/lib/agent/messages";
import { agentChatModel, agentProvider } from "@/lib/agent/model";
import { AgentRecorder } from "@/lib/agent/recorder";
import { type AgentPart, streamAgentTurn } from "@/lib/agent/stream";
import { createMailTools } from "@/lib/agent/tools";
import { answerErrorSentence } from "./answer-error";
import { type AnswerTurn, type DebugInput, errorText, recordModelCall, settleAnswer } from "./settle";

/** The id a LangChain chat model reports for itself (`model` on OpenAI's client, `modelId` offline). */
function modelIdOf(model: BaseChatModel, fallback: string): string {
  const candidate = model as unknown as { modelId?: unknown; model?: unknown };
  if (typeof candidate.modelId === "string") return candidate.modelId;
  if (typeof candidate.model === "string") return candidate.model;
  return fallback;
}

function partsText(parts: readonly AgentPart[]): string {
  return parts
    .map((part) => (part.type === "text" ? part.text : ""))
    .filter(Boolean)
    .join("\n\n");
}

export async function answerWithAgent(turn: AnswerTurn, messages: ModelMessage[]): Promise<Response> {
  const { db, ai, log, userId } = turn;
  const started = performance.now();
  const client = ai.openAIClientOptions();
  const model = agentChatModel({
    client,
    offlineModel: client ? null : await ai.offlineAgentModel(),
    modelId: turn.modelId,
    temperature: turn.temperature,
  });
  const provider = agentProvider(client);
  const agentModelId = modelIdOf(model, turn.modelId);
  const mailbox = await mailboxForUser(db, userId, { google: googleClient() });
  const tools = createMailTools({
    db,
    mailbox,
    context: { userId, conversationId: turn.conversation.id, messageId: turn.assistantMessageId },
  });
  const graph = buildAgentGraph({ model, tools, maxModelCalls: agentConfig.maxModelCalls });

  const debugInput = (): DebugInput => ({
    modelInput: recorder.debugSteps({ provider, modelId: agentModelId, temperature: turn.temperature }),
    trace: turn.trace,
    provider,
    modelId: agentModelId,
  });
  const recorder = new AgentRecorder(() => recordModelCall(turn, debugInput()));
  const span = tracer().startSpan("chat.agent", {
    attributes: { "gen_ai.request.model": agentModelId, "gen_ai.system": provider, "lifeline.mailbox": mailbox.kind },
  });

  const parts: AgentPart[] = [];
  let firstPartMs: number | null = null;
  const latencyMs = () => Math.round(performance.now() - started);

  // The answer's progress, saved at every tool step (the next model call starts) and at most every
  // answerConfig.progressIntervalMs while text streams: the interrupted-answer sweep reads it, and
  // a run of several slow model calls must stay visibly alive.
  let progressSavedAt = performance.now();
  const saveProgress = () => {
    progressSavedAt = performance.now();
    void saveAnswerProgress(db, { userId, messageId: turn.assistantMessageId, content: partsText(parts) }).catch(
      (error: unknown) =>
        log.warn({ err: error, messageId: turn.assistantMessageId }, "could not save the answer's progress"),
    );
  };

  const settle = async (outcome: {
    status: "complete" | "aborted" | "error";
    error?: string;
    finishReason?: string;
    notice?: MessageNotice | null;
  }) => {
    const usage = recorder.usage;
    span.setAttributes({
      "lifeline.answer.status": outcome.status,
      "lifeline.agent.model_calls": recorder.modelCalls().length,
      "gen_ai.usage.input_tokens": usage?.inputTokens ?? 0,
      "gen_ai.usage.output_tokens": usage?.outputTokens ?? 0,
    });
    if (outcome.error) recordSpanError(span, new Error(outcome.error));
    span.end();
    await settleAnswer(turn, debugInput(), {
      ...outcome,
      text: partsText(parts),
      parts,
      ...(usage
        ? {
            usage: {
              inputTokens: usage.inputTokens,
              outputTokens: usage.outputTokens,
              totalTokens: usage.totalTokens,
              inputTokenDetails: { noCacheTokens: undefined, cacheReadTokens: undefined, cacheWriteTokens: undefined },
              outputTokenDetails: { textTokens: undefined, reasoningTokens: undefined },
            },
          }
        : {}),
      timeToFirstTokenMs: firstPartMs,
      latencyMs: latencyMs(),
    });
  };

  const stream = createUIMessageStream({
    execute: async ({ writer }) => {
      writer.write({ type: "start", messageId: turn.assistantMessageId, messageMetadata: { ...turn.metadata } });
      // Which mailbox this answer works on: the chat says so plainly when it is the demo mailbox.
      const mailboxPart = { type: "data-agent-mailbox", id: "mailbox", data: { kind: mailbox.kind } } as const;
      writer.write(mailboxPart);
      parts.push(mailboxPart);
      try {
        await streamAgentTurn({
          graph,
          messages: toLangChainMessages(messages),
          recorder,
          signal: turn.signal,
          parts,
          write: (chunk) => {
            firstPartMs ??= latencyMs();
            writer.write(chunk);
            if (
              chunk.type === "tool-output-available" ||
              performance.now() - progressSavedAt >= answerConfig.progressIntervalMs
            ) {
              saveProgress();
            }
          },
        });
      } catch (error) {
        if (turn.signal.aborted) {
          await settle({ status: "aborted" });
          writer.write({ type: "abort" });
          return;
        }
        log.warn({ err: error, messageId: turn.assistantMessageId }, "the agent failed mid-answer");
        await settle({ status: "error", error: errorText(error), finishReason: "error" });
        throw error;
      }
      // The final answer cut at the output limit or by the content filter says so, as on the text path.
      const last = recorder.lastFinishReason;
      const notice = last === "length" ? "length" : last === "content_filter" ? "content-filter" : null;
      await settle({ status: "complete", finishReason: last ?? "stop", notice });
      writer.write({ type: "finish", messageMetadata: { ...turn.metadata, latencyMs: latencyMs() } });
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
