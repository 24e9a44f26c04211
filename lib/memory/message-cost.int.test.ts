/**
 * One message's CPU grows with its length, whatever it is made of (15,000 emoji once held the
 * event loop ~9 s while 15,000 ASCII characters took ~1 s). Each worst case — a run of emoji, CJK
 * without spaces, one long word, many short sentences, deep markdown — goes through what a chat
 * turn and its extraction run on the embedded defaults: the offline embedder, retrieval on the
 * database (assembleContext: every branch, the token-budgeted prompt), the offline model's answer,
 * and the extraction job (offline extractor, embedding, consolidation, the store). Its time is
 * compared with an ASCII message of the same length, measured in the same rounds: a ratio, not a
 * duration, so the machine's load cancels out. Before the fix the emoji case was ~50 times the
 * ASCII one (the tokenizer's byte-pair merge and the extractor's clause regex were quadratic).
 */
import { generateText } from "ai";
import { beforeAll, describe, expect, it } from "vitest";
import { MESSAGE_MAX_CHARS } from "@/core/config";
import { getExtraction } from "@/db/queries/extractions";
import { type ExtractionDispatcher, enqueueExtraction } from "@/lib/jobs/extraction-queue";
import { InProcessRunner } from "@/lib/jobs/in-process-runner";
import { assembleContext } from "@/lib/memory/retrieval/assemble";
import { offlineLanguageModel } from "@/lib/offline/model";
import { embedWordVec, WORDVEC_EMBEDDING_MODEL_ID } from "@/lib/offline/wordvec-embedder";
import { DB_KINDS } from "@/tests/db";
import { createConversation, createPair, createUser, testDeps } from "@/tests/fixtures/jobs";
import { useTestDatabase } from "@/tests/test-database";

const N = MESSAGE_MAX_CHARS;
const fill = (unit: string) => unit.repeat(Math.ceil(N / unit.length)).slice(0, N);

/** The baseline: ordinary English of the longest allowed length. */
const ASCII = fill("I like hiking in the mountains with my sister. ");
/** Each worst case, at most MESSAGE_MAX_CHARS characters (code points, as the chat route counts them). */
const WORST_CASES: Record<string, string> = {
  emoji: "😀".repeat(N),
  "mixed emoji": Array.from({ length: N }, (_, i) => String.fromCodePoint(0x1f600 + ((i * 7) % 80))).join(""),
  CJK: fill("我喜欢和我的妹妹在山里徒步旅行"),
  "one long word": "a".repeat(N),
  "many short sentences": fill("Hi. "),
  "deep markdown": `${"> ".repeat(N / 4)}${"- ".repeat(N / 4)}`,
};

/** A worst case may cost at most this many times the ASCII message (measured: about 1–3 under load). */
const MAX_RATIO = 4;
/** Each message is measured this many times, interleaved; its cost is its fastest run (load only adds). */
const ROUNDS = 2;

const embedder = `offline/${WORDVEC_EMBEDDING_MODEL_ID}`;
const embed = async (text: string) => embedWordVec(text);

describe.each(DB_KINDS)("one message's cost on %s", (kind) => {
  const database = useTestDatabase(kind);
  let owner: { userId: string; conversationId: string };
  let runner: InProcessRunner;
  let dispatcher: ExtractionDispatcher;

  beforeAll(async () => {
    const userId = await createUser(database.db, "Ada");
    owner = { userId, conversationId: await createConversation(database.db, userId) };
    runner = new InProcessRunner({
      deps: async () =>
        testDeps(database.db, {
          model: offlineLanguageModel,
          embed: async (texts) => texts.map((text) => embedWordVec(text)),
          embeddingModel: embedder,
        }),
      backoff: { backoffBaseMs: 1, backoffMaxMs: 1 },
    });
    dispatcher = { kind: "in-process", dispatch: (job) => runner.run(job) };
    // Something to retrieve: a few memories, extracted the same way.
    for (const statement of ["I live in Lisbon.", "My sister's name is Maya.", "I'm allergic to peanuts."]) {
      await turn(statement);
    }
  });
  /** One chat turn's retrieval and answer, then its extraction to the end; returns the milliseconds taken. */
  async function turn(message: string): Promise<number> {
    const started = performance.now();
    const { messages } = await assembleContext(database.db, {
      ...owner,
      userName: "Ada",
      message,
      history: [],
      mode: "conversational",
      memoryEnabled: true,
      embed,
      embeddingModel: embedder,
    });
    const { text } = await generateText({ model: offlineLanguageModel, messages, allowSystemInMessages: true });
    const pair = await createPair(database.db, owner, message, text);
    const { extractionId } = await enqueueExtraction(database.db, { ...pair, memoryEnabled: true }, dispatcher);
    await runner.idle();
    const elapsed = performance.now() - started;
    expect(await getExtraction(database.db, { extractionId })).toMatchObject({ status: "succeeded", lastError: null });
    return elapsed;
  }

  it(`every worst case costs at most ${MAX_RATIO}× an ASCII message of the same length`, async () => {
    const fastest: Record<string, number> = {};
    const all = { ascii: ASCII, ...WORST_CASES };
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, message] of Object.entries(all)) {
        const ms = await turn(message);
        fastest[name] = Math.min(fastest[name] ?? Number.POSITIVE_INFINITY, ms);
      }
    }
    const baseline = fastest.ascii as number;
    const ratios = Object.fromEntries(
      Object.keys(WORST_CASES).map((name) => [name, Number(((fastest[name] as number) / baseline).toFixed(2))]),
    );
    const over = Object.entries(ratios).filter(([, ratio]) => ratio > MAX_RATIO);
    expect(over, `ratios to ASCII (${baseline.toFixed(0)} ms): ${JSON.stringify(ratios)}`).toEqual([]);
  });
});
