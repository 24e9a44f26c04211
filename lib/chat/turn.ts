// One chat turn, in the order it runs (docs/architecture.md § The chat turn).

import { promptConfig } from "@/core/config";
import type { Logger } from "@/core/logger";
import { effectiveTemperature, historyTokenBudget } from "@/core/model-capabilities";
import { inSpan } from "@/core/telemetry";
import type { Db } from "@/db/client";
import { type Conversation, createConversation, getConversation, updateConversation } from "@/db/queries/conversations";
import { importedConversationConflict } from "@/db/queries/imports";
import { cancelPendingSendsBelow, createMessages, listBranch, type Message } from "@/db/queries/messages";
import { claimTranscription } from "@/db/queries/transcriptions";
import { type Account, getAccount } from "@/db/queries/users";
import type { AiRegistry } from "@/lib/ai/registry";
import type { ExtractionDispatcher } from "@/lib/jobs/extraction-queue";
import { assembleContext } from "@/lib/memory/retrieval/assemble";
import type { AssemblyConfig } from "@/lib/memory/retrieval/assembly-config";
import type { HistoryMessage } from "@/lib/memory/retrieval/prompt";
import { countTokens } from "@/lib/memory/tokens";
import type { ChatBody } from "@/lib/validation/chat";
import { answerWithAgent } from "./agent-answer";
import { type DictationRecord, dictationRecord } from "./dictation";
import { loadBranchThrough, planContinue, planEdit, planRetry, toHistory } from "./history";
import { chatTurnsInFlight } from "./in-flight";
import { assertKnownModel } from "./models";
import type { AnswerTurn } from "./settle";
import { answerWithText } from "./text-answer";

export type { TurnMetadata } from "./settle";

export const DEFAULT_TEMPERATURE = 0.7;

export interface ChatTurnInput {
  userId: string;
  body: ChatBody;
  signal: AbortSignal;
  log: Logger;
  dispatcher: ExtractionDispatcher;
  assembly?: AssemblyConfig;
  /** The turn's count in flight, when its caller began it (in-flight.ts); else it begins here. */
  endTurn?: () => void;
}

interface TurnPlan {
  existing: Conversation | null;
  account: Account;
  modelId: string;
  question: string;
  /** A retry's stored question, asked again: only a new version of the answer is written. */
  asked: Message | null;
  parentMessageId: string | null | undefined;
  earlier: Message[] | undefined;
  /** A retried answer or edited question: the emails prepared below it and still waiting are cancelled. */
  replaced: { messageId: string; reason: string } | null;
  dictation: DictationRecord | null;
}

export async function runChatTurn(db: Db, ai: AiRegistry, input: ChatTurnInput): Promise<Response> {
  const endTurn = input.endTurn ?? chatTurnsInFlight().begin();
  try {
    return await startTurn(db, ai, input, endTurn);
  } catch (error) {
    endTurn();
    throw error;
  }
}

/** `endTurn` is called by the answer's settle (settle.ts). */
async function startTurn(db: Db, ai: AiRegistry, input: ChatTurnInput, endTurn: () => void): Promise<Response> {
  const plan = await planTurn(db, ai, input);
  const conversation = await openConversation(db, input, plan);
  // Independent of the writes, so started first.
  const embedding = conversation.memoryEnabled ? ai.embedText(plan.question) : null;
  embedding?.catch(() => {});
  const history = plan.earlier
    ? Promise.resolve(toHistory(plan.earlier))
    : listBranch(db, {
        userId: input.userId,
        conversationId: conversation.id,
        limit: promptConfig.historyWindow,
      }).then(toHistory);
  history.catch(() => {});
  const written = writeSpan("messages", () => writeMessages(db, input.userId, conversation, plan));
  // Read alongside the writes: the turn's own rows, if the read saw them, are not history.
  const earlier = Promise.all([history, written]).then(([rows, { userMessage, assistantMessage }]) =>
    rows.filter((m) => m.id !== userMessage.id && m.id !== assistantMessage.id),
  );
  // Retrieval needs none of the new rows, so it runs while they are written; it counts access only once
  // `earlier` resolves, so a turn whose writes fail counts nothing (assemble.ts).
  const assembled = assemble(db, ai, input, { conversation, plan, earlier, embedding });
  const [writes, context] = await Promise.allSettled([written, assembled]);
  if (writes.status === "rejected") throw writes.reason;
  if (context.status === "rejected") throw context.reason;
  const { userMessage, assistantMessage } = writes.value;
  const { messages, trace } = context.value;
  if (trace.status === "failed")
    input.log.warn({ error: trace.error, stage: trace.failedStage }, "memory retrieval failed");
  const mode = conversation.mode;
  const ids = { userMessageId: userMessage.id, assistantMessageId: assistantMessage.id };
  const turn: AnswerTurn = {
    db,
    ai,
    log: input.log,
    dispatcher: input.dispatcher,
    userId: input.userId,
    conversation: { id: conversation.id, memoryEnabled: conversation.memoryEnabled },
    ...ids,
    modelId: plan.modelId,
    mode,
    temperature: effectiveTemperature(plan.modelId, input.body.temperature ?? DEFAULT_TEMPERATURE),
    trace,
    dictation: plan.dictation,
    signal: input.signal,
    endTurn,
    metadata: { conversationId: conversation.id, ...ids, model: plan.modelId, mode, retrievalStatus: trace.status },
  };
  return mode === "agent" ? answerWithAgent(turn, messages) : answerWithText(turn, messages);
}

/** The request's model (must be configured), else the conversation's while still configured, else the default. */
function resolveModelId(ai: AiRegistry, requested: string | undefined, stored: string | null | undefined): string {
  if (requested !== undefined) {
    assertKnownModel(ai, requested);
    return requested;
  }
  return stored && ai.isKnownChatModel(stored) ? stored : ai.config.defaultChatModel;
}

/** Everything that can reject the request, before the first write; a message another user's or elsewhere → 404. */
async function planTurn(db: Db, ai: AiRegistry, { userId, body }: ChatTurnInput): Promise<TurnPlan> {
  const [existing, account] = await Promise.all([
    body.conversationId ? getConversation(db, { userId, conversationId: body.conversationId }) : null,
    getAccount(db, { userId }),
  ]);
  if (existing?.importedFrom) {
    throw importedConversationConflict("turn");
  }
  const modelId = resolveModelId(ai, body.model, existing?.model);
  const changedId = body.retryOf ?? body.editOf;
  const throughId = changedId ?? body.parentMessageId;
  const branch =
    existing && throughId
      ? await loadBranchThrough(db, { userId, conversationId: existing.id, messageId: throughId })
      : null;
  const retry = branch && body.retryOf ? planRetry(branch, body.retryOf) : null;
  const edit = branch && body.editOf ? planEdit(branch, body.editOf) : null;
  const shown = branch && body.parentMessageId ? planContinue(branch, body.parentMessageId) : null;
  const dictation =
    body.dictationId && body.message !== undefined
      ? await dictationRecord(db, { userId, transcriptionId: body.dictationId, text: body.message })
      : null;
  return {
    existing,
    account,
    modelId,
    question: retry?.userMessage.content ?? body.message ?? "",
    asked: retry?.userMessage ?? null,
    // An edit is a new version of its question, under the same parent.
    parentMessageId: retry ? retry.userMessage.id : edit ? edit.parentMessageId : body.parentMessageId,
    earlier: retry?.earlier ?? edit?.earlier ?? shown ?? undefined,
    replaced:
      branch && changedId
        ? { messageId: changedId, reason: retry ? "its answer was regenerated" : "its question was edited" }
        : null,
    dictation,
  };
}

/** The turn's writes before the first token are spans of their own: the bench sets the turn's time against them. */
const writeSpan = <T>(what: "conversation" | "messages", write: () => Promise<T>) =>
  inSpan("chat.write", { "lifeline.write": what }, write);

function openConversation(db: Db, { userId, body }: ChatTurnInput, { existing, account }: TurnPlan) {
  if (existing === null) {
    return writeSpan("conversation", () =>
      createConversation(db, {
        userId,
        mode: body.mode,
        model: body.model ?? null,
        memoryEnabled: account.memoryEnabledDefault,
      }),
    );
  }
  if (body.mode === undefined && body.model === undefined) return Promise.resolve(existing);
  return writeSpan("conversation", () =>
    updateConversation(db, {
      userId,
      conversationId: existing.id,
      patch: { mode: body.mode ?? existing.mode, model: body.model ?? existing.model },
    }),
  );
}

/** One statement orders the answer after its question; nothing is deleted (old versions keep their records). */
async function writeMessages(db: Db, userId: string, conversation: Conversation, plan: TurnPlan) {
  const { question, asked, dictation } = plan;
  const replaced = plan.replaced ? cancelPendingSendsBelow(db, { userId, ...plan.replaced }) : null;
  const create = (tx: Db) =>
    createMessages(tx, {
      userId,
      conversationId: conversation.id,
      parentMessageId: plan.parentMessageId,
      messages: [
        ...(asked
          ? []
          : [
              {
                role: "user" as const,
                content: question,
                contentTokens: countTokens(question),
                parts: [{ type: "text", text: question }],
              },
            ]),
        { role: "assistant", content: "", model: plan.modelId, status: "streaming" },
      ],
    });
  // In the same transaction: a transcription another send claimed first is a 409 that leaves no message behind.
  const created = dictation
    ? db.transaction(async (tx) => {
        const rows = await create(tx);
        const written = rows[0];
        if (written) {
          await claimTranscription(tx, { userId, transcriptionId: dictation.transcriptionId, messageId: written.id });
        }
        return rows;
      })
    : create(db);
  const [rows] = await Promise.all([created, replaced]);
  const userMessage = asked ?? rows[0];
  const assistantMessage = asked ? rows[0] : rows[1];
  if (!userMessage || !assistantMessage) throw new Error("the turn's messages were not written");
  return { userMessage, assistantMessage };
}

function assemble(
  db: Db,
  ai: AiRegistry,
  input: ChatTurnInput,
  given: {
    conversation: Conversation;
    plan: TurnPlan;
    earlier: Promise<HistoryMessage[]>;
    embedding: Promise<number[]> | null;
  },
) {
  const { conversation, plan, embedding } = given;
  const { memoryEnabled, mode } = conversation;
  return inSpan("chat.retrieval", { "lifeline.memory_enabled": memoryEnabled, "lifeline.mode": mode }, async (span) => {
    const context = await assembleContext(db, {
      userId: input.userId,
      userName: plan.account.name,
      conversationId: conversation.id,
      message: plan.question,
      history: given.earlier,
      mode,
      memoryEnabled,
      embed: (text) => (embedding && text === plan.question ? embedding : ai.embedText(text)),
      embeddingModel: ai.describeProviders().embedder,
      config: input.assembly,
      historyTokenBudget: historyTokenBudget(plan.modelId, {
        offline: ai.config.provider === "offline",
        unknownModelContextWindow: ai.config.unknownModelContextWindow,
      }),
    });
    span.setAttribute("lifeline.retrieval.status", context.trace.status);
    return context;
  });
}
