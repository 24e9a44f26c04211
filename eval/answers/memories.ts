/**
 * The memories a Lifeline user would have from a LoCoMo sample: its observations, or what the real
 * extraction job stores with the first speaker as the user. The other speaker's words are never a
 * fact about the user.
 */
import type { LanguageModelV4 } from "@ai-sdk/provider";
import type { Db } from "@/db/client";
import { createConversation } from "@/db/queries/conversations";
import { createExtraction } from "@/db/queries/extractions";
import { createMessages } from "@/db/queries/messages";
import { runExtraction } from "@/lib/jobs/extraction-job";
import { directSteps } from "../extraction";
import { type Embedder, embedCorpus, insertCorpusMemories } from "../load";
import { loadLocomo } from "../locomo";
import type { AnswerSample, Session } from "./dataset";

export const MEMORY_MODES = ["observations", "extracted"] as const;
export type MemoryMode = (typeof MEMORY_MODES)[number];

/** `runId` keeps memory ids apart between kept runs. */
export async function storeObservations(
  db: Db,
  input: { userId: string; locomoPath: string; sample: AnswerSample; embedder: Embedder; runId: string },
): Promise<number> {
  const { corpora } = await loadLocomo(input.locomoPath, [input.sample.sampleId]);
  const corpus = corpora[0];
  if (!corpus) return 0;
  const named = { ...corpus, name: `${input.runId}/${corpus.name}` };
  const vectors = await embedCorpus(input.embedder, named);
  await db.transaction((tx) => insertCorpusMemories(tx, input.userId, named, vectors, input.embedder));
  return corpus.memories.length;
}

export interface Exchange {
  user: string;
  assistant: string;
}

/** Turns before the first speaker's first turn have no user message to answer. */
export function exchanges(session: Session, user: string): Exchange[] {
  const line = (turn: Session["turns"][number]) =>
    `${turn.text}${turn.caption ? ` [shares a photo: ${turn.caption}]` : ""}`;
  const result: Exchange[] = [];
  for (const turn of session.turns) {
    const last = result.at(-1);
    if (turn.speaker === user) {
      if (last && last.assistant === "") last.user += `\n${line(turn)}`;
      else result.push({ user: line(turn), assistant: "" });
    } else if (last) {
      last.assistant += `${last.assistant ? "\n" : ""}${turn.speaker}: ${line(turn)}`;
    }
  }
  return result.filter((exchange) => exchange.assistant !== "");
}

export interface ExtractionRun {
  model: LanguageModelV4;
  embed: (texts: string[]) => Promise<number[][]>;
  embeddingModel: string;
  /** False stops here (the token budget). */
  mayRun: (exchange: Exchange) => boolean;
}

export async function storeExtracted(
  db: Db,
  input: { userId: string; sample: AnswerSample; run: ExtractionRun },
): Promise<{ exchanges: number; failed: number; stopped: boolean }> {
  const { userId, sample, run } = input;
  let ran = 0;
  let failed = 0;
  for (const session of sample.sessions) {
    const conversation = await createConversation(db, {
      userId,
      title: `LoCoMo ${sample.sampleId}, session ${session.index} (${session.dateText})`,
    });
    for (const exchange of exchanges(session, sample.speakers[0])) {
      if (!run.mayRun(exchange)) return { exchanges: ran, failed, stopped: true };
      const [userMessage, assistantMessage] = await createMessages(db, {
        userId,
        conversationId: conversation.id,
        messages: [
          { role: "user", content: exchange.user, parts: [{ type: "text", text: exchange.user }] },
          { role: "assistant", content: exchange.assistant, parts: [{ type: "text", text: exchange.assistant }] },
        ],
      });
      if (!userMessage || !assistantMessage) throw new Error("the exchange's messages were not written");
      const { extraction } = await createExtraction(db, {
        userId,
        conversationId: conversation.id,
        userMessageId: userMessage.id,
        assistantMessageId: assistantMessage.id,
        status: "queued",
        runner: "in-process",
      });
      const outcome = await runExtraction(
        { db, model: run.model, embed: run.embed, embeddingModel: run.embeddingModel, now: () => session.at },
        { extractionId: extraction.id },
        directSteps(new Map()),
      ).catch(() => null);
      ran++;
      if (outcome?.status !== "succeeded") failed++;
    }
  }
  return { exchanges: ran, failed, stopped: false };
}
