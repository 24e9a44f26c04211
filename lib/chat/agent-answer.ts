// Agent mode's answer: the Gmail agent on the turn's assembled context; every step recorded (settle.ts, lib/agent/recorder.ts).
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { consumeStream, createUIMessageStream, createUIMessageStreamResponse, type ModelMessage } from "ai";
import { agentConfig } from "@/core/config";
import { tracer } from "@/core/telemetry";
import { buildAgentGraph } from "@/lib/agent/graph";
import { googleClient, mailboxForUser } from "@/lib/agent/mailbox";
import { toLangChainMessages } from "@/lib/agent/messages";
import { agentChatModel, agentProvider } from "@/lib/agent/model";
import { AgentRecorder } from "@/lib/agent/recorder";
import { type AgentPart, streamAgentTurn } from "@/lib/agent/stream";
import { createMailTools } from "@/lib/agent/tools";
import { answerErrorSentence } from "./answer-error";
import { errorText } from "./model-error";
import { type AnswerEnding, AnswerRecord, type AnswerTurn } from "./settle";

interface AgentAnswer {
  turn: AnswerTurn;
  graph: ReturnType<typeof buildAgentGraph>;
  mailbox: Awaited<ReturnType<typeof mailboxForUser>>;
  recorder: AgentRecorder;
  record: AnswerRecord;
  parts: AgentPart[];
}

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
  const agent = await prepareAgent(turn, performance.now());
  const stream = createUIMessageStream({
    execute: async ({ writer }) => {
      writer.write({ type: "start", messageId: turn.assistantMessageId, messageMetadata: { ...turn.metadata } });
      const ending = await runAgent(agent, messages, (chunk) => writer.write(chunk));
      if (ending === "aborted") writer.write({ type: "abort" });
      else writer.write({ type: "finish", messageMetadata: { ...turn.metadata, latencyMs: agent.record.elapsedMs() } });
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

async function prepareAgent(turn: AnswerTurn, started: number): Promise<AgentAnswer> {
  const { db, ai, userId } = turn;
  const client = ai.openAIClientOptions();
  const model = agentChatModel({
    client,
    offlineModel: client ? null : await ai.offlineAgentModel(),
    modelId: turn.modelId,
    temperature: turn.temperature,
  });
  const provider = agentProvider(client);
  const modelId = modelIdOf(model, turn.modelId);
  const mailbox = await mailboxForUser(db, userId, { google: googleClient() });
  const tools = createMailTools({
    db,
    mailbox,
    context: { userId, conversationId: turn.conversation.id, messageId: turn.assistantMessageId },
  });
  const graph = buildAgentGraph({ model, tools, maxModelCalls: agentConfig.maxModelCalls });
  const span = tracer().startSpan("chat.agent", {
    attributes: { "gen_ai.request.model": modelId, "gen_ai.system": provider, "lifeline.mailbox": mailbox.kind },
  });
  const parts: AgentPart[] = [];
  const recorder: AgentRecorder = new AgentRecorder(() => record.modelCall());
  const record = new AnswerRecord(
    turn,
    span,
    {
      debugInput: () => ({
        modelInput: recorder.debugSteps({ provider, modelId, temperature: turn.temperature }),
        trace: turn.trace,
        provider,
        modelId,
      }),
      content: () => ({ text: partsText(parts), parts }),
    },
    started,
  );
  return { turn, graph, mailbox, recorder, record, parts };
}

/** Settles the answer however the run ends; an error is rethrown for the stream's error part. */
async function runAgent(
  agent: AgentAnswer,
  messages: ModelMessage[],
  write: Parameters<typeof streamAgentTurn>[0]["write"],
): Promise<"aborted" | "complete"> {
  const { turn, recorder, record, parts } = agent;
  // The chat says plainly when the answer works on the demo mailbox.
  const mailboxPart = { type: "data-agent-mailbox", id: "mailbox", data: { kind: agent.mailbox.kind } } as const;
  write(mailboxPart);
  parts.push(mailboxPart);
  try {
    await streamAgentTurn({
      graph: agent.graph,
      messages: toLangChainMessages(messages),
      recorder,
      signal: turn.signal,
      parts,
      write: (chunk) => {
        record.output();
        write(chunk);
        // At every tool step too: a run of several slow model calls must stay visibly alive.
        record.progress(chunk.type === "tool-output-available");
      },
    });
  } catch (error) {
    if (turn.signal.aborted) {
      await settle(agent, { status: "aborted" });
      return "aborted";
    }
    turn.log.warn({ err: error, messageId: turn.assistantMessageId }, "the agent failed mid-answer");
    await settle(agent, { status: "error", error: errorText(error), finishReason: "error" });
    throw error;
  }
  // Cut at the output limit or by the content filter: the answer says so, as on the text path.
  const last = recorder.lastFinishReason;
  const notice = last === "length" ? "length" : last === "content_filter" ? "content-filter" : null;
  await settle(agent, { status: "complete", finishReason: last ?? "stop", notice });
  return "complete";
}

function settle(agent: AgentAnswer, ending: Omit<AnswerEnding, "usage">): Promise<void> {
  const usage = agent.recorder.usage;
  return agent.record.settle(
    {
      ...ending,
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
    },
    { "lifeline.agent.model_calls": agent.recorder.modelCalls().length },
  );
}
