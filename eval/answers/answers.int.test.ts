/**
 * `npm run eval -- --answers` on the repository's own LoCoMo-shaped fixture (an invented
 * two-session conversation and an invented audit pair, eval/answers/fixtures/): the offline run
 * through the real chat turn on both databases, and the judged run against the strict
 * OpenAI-compatible fake — the judge's request, the token budget's stop, the dry run.
 */
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getPromptDebug } from "@/db/queries/prompt-debug";
import { getPasswordHash } from "@/db/queries/users";
import { memories, memoryExtractions } from "@/db/schema";
import { createAiRegistry } from "@/lib/ai/registry";
import { verifyPassword } from "@/lib/auth/password";
import { type ChatRequest, type StrictOpenAi, startStrictOpenAi } from "@/tests/contracts/openai-fake";
import { DB_KINDS } from "@/tests/db";
import { useTestDatabase } from "@/tests/test-database";
import { estimateTurn } from "./budget";
import { NOT_EXTRACTED } from "./chat-turn";
import { type AnswersOptions, parseAnswersCli, runAnswersCli, runAnswersEval } from "./cli";
import { loadAnswerSamples, loadAudit } from "./dataset";
import { locomoF1 } from "./f1";
import { judgePrompt } from "./judge";

const FIXTURE = path.join(process.cwd(), "eval", "answers", "fixtures", "locomo-demo.json");
const AUDIT = path.join(process.cwd(), "eval", "answers", "fixtures", "audit");
const fixtureArgs = ["--answers", "--locomo", FIXTURE, "--audit", AUDIT];

async function fixture(
  extra: string[] = [],
): Promise<Parameters<typeof runAnswersEval>[1] & { options: AnswersOptions }> {
  const options = parseAnswersCli([...fixtureArgs, ...extra], {}, process.cwd());
  const [samples, audit] = await Promise.all([loadAnswerSamples(FIXTURE), loadAudit(AUDIT)]);
  return { options, samples, audit, registry: createAiRegistry({}), judge: null, env: {} };
}

beforeAll(() => {
  vi.stubEnv("LIFELINE_OFFLINE_DELAY_MS", "0");
});
afterAll(() => {
  vi.unstubAllEnvs();
});

describe.each(DB_KINDS)("npm run eval -- --answers, offline, on %s", (kind) => {
  const database = useTestDatabase(kind);

  it("answers every question through the chat turn for each contender, scores F1 against both golds, and keeps what the app shows", async () => {
    const input = await fixture();
    const report = await runAnswersEval(input.options, { ...input, database });

    // Category 5 is skipped: 7 of the fixture's 8 questions, each answered by the three contenders.
    expect(report.dataset.questions).toBe(7);
    expect(report.dataset.corrected).toBe(2);
    expect(report.contenders.map((c) => [c.name, c.overall.questions])).toEqual([
      ["lifeline", 7],
      ["full-context", 7],
      ["no-memory", 7],
    ]);
    const [user] = report.app.users;
    if (!user) throw new Error("no evaluation user");
    expect(user.memories).toBe(8);
    // The user signs in with the run's password.
    expect(await verifyPassword(report.app.password, await getPasswordHash(database.db, { userId: user.userId }))).toBe(
      true,
    );

    for (const question of report.perQuestion) {
      const gold = question.corrected ?? question.gold;
      for (const [contender, scored] of Object.entries(question.answers)) {
        expect(scored.status, `${contender} ${question.id}`).toBe("complete");
        expect(scored.f1).toBeCloseTo(locomoF1(question.category, scored.answer, question.gold), 12);
        expect(scored.f1Corrected).toBeCloseTo(locomoF1(question.category, scored.answer, gold), 12);
        expect(scored.debugUrl).toBe(`http://localhost:3000/messages/${scored.messageId}/debug`);
        // Every answer has the debug record the turn wrote: what the model received.
        const record = await getPromptDebug(database.db, { userId: user.userId, messageId: scored.messageId });
        const prompt = JSON.stringify(record.modelInput);
        expect(prompt).toContain(question.question);
        if (contender === "full-context") expect(prompt).toContain("Session 2, 10:00 am on 20 May, 2024:");
        else expect(prompt).not.toContain("Session 1,");
        expect(record.retrievalStatus).toBe(contender === "lifeline" ? "ok" : "disabled");
      }
    }
    // The adapter's reading of the turn: memory lines only with memory on.
    expect(report.perQuestion.every((q) => (q.answers.lifeline?.memoryLines ?? 0) > 0)).toBe(true);
    expect(report.perQuestion.every((q) => q.answers["no-memory"]?.memoryLines === 0)).toBe(true);
    // The whole conversation makes the full-context prompt the longest.
    const [lifeline, fullContext, noMemory] = report.contenders;
    expect(fullContext?.tokens.promptMean).toBeGreaterThan(noMemory?.tokens.promptMean ?? Infinity);
    expect(lifeline?.tokens.promptMean).toBeGreaterThan(noMemory?.tokens.promptMean ?? Infinity);
    // The corrected gold moves F1 only where the audit changed it.
    const adopted = report.perQuestion.find((q) => q.id === "locomo_0_qa1");
    expect(adopted?.corrected).toBe("24 February 2024");
    expect(report.perQuestion.find((q) => q.id === "locomo_0_qa5")?.corrected).toBeNull();

    // Lifeline's turns hand their extraction over; the evaluation does not run it, and says so.
    const extractions = await database.db
      .select({ status: memoryExtractions.status, lastError: memoryExtractions.lastError })
      .from(memoryExtractions)
      .where(eq(memoryExtractions.userId, user.userId));
    expect(extractions.filter((e) => e.status === "failed").map((e) => e.lastError)).toEqual(
      Array.from({ length: 7 }, () => NOT_EXTRACTED),
    );
    expect(extractions.filter((e) => e.status === "skipped")).toHaveLength(14);
    expect(report.judge).toBeNull();
    expect(report.vagueAnswers).toBeNull();
  });
});

describe("npm run eval -- --answers --memories extracted, offline", () => {
  const database = useTestDatabase("pglite");

  it("stores what the real extraction job extracts from the first speaker's turns, dated by their session", async () => {
    const input = await fixture(["--memories", "extracted", "--contenders", "lifeline", "--sample", "1"]);
    const report = await runAnswersEval(input.options, { ...input, database });
    const [user] = report.app.users;
    if (!user) throw new Error("no evaluation user");
    // Two sessions: Priya's opening turns and her answer to Tom's question each make an exchange.
    expect(user.extraction).toEqual({ exchanges: 3, failed: 0 });
    const stored = await database.db
      .select({ content: memories.content, createdAt: memories.createdAt })
      .from(memories)
      .where(and(eq(memories.userId, user.userId), eq(memories.status, "active")));
    expect(user.memories).toBe(stored.length);
    expect(stored.length).toBeGreaterThan(0);
    const days = new Set(stored.map((m) => m.createdAt.toISOString().slice(0, 10)));
    expect([...days].every((day) => day === "2024-03-03" || day === "2024-05-20")).toBe(true);
    expect(report.perQuestion).toHaveLength(1);
  });
});

describe("npm run eval -- --answers with a judge, against the strict OpenAI-compatible fake", () => {
  const database = useTestDatabase("pglite");
  let fake: StrictOpenAi;
  const isJudge = (body: ChatRequest) => body.response_format?.type === "json_object";

  beforeAll(async () => {
    fake = await startStrictOpenAi((body) => {
      if (!isJudge(body)) return { kind: "text", text: "Biscuit" };
      // The judge accepts an answer that names the gold's first word, as a lenient judge would.
      const content = String(body.messages[0]?.content ?? "");
      // The prompt's own example comes first: the answer to judge is the last of each field.
      const gold = [...content.matchAll(/Gold answer: (.*)\n/g)].at(-1)?.[1] ?? "";
      const answer = [...content.matchAll(/Generated answer: (.*)\n/g)].at(-1)?.[1] ?? "";
      const correct = answer.toLowerCase().includes((gold.split(/[ ,]/)[0] ?? "").toLowerCase());
      return { kind: "json", content: { label: correct ? "CORRECT" : "WRONG" } };
    });
  });
  afterAll(async () => {
    await fake?.close();
  });

  const env = () => ({
    OPENAI_BASE_URL: fake.baseURL,
    LIFELINE_CHAT_MODELS: "gpt-4o-mini",
    LIFELINE_EMBEDDING_MODEL: "text-embedding-3-small",
  });

  it("asks mem0's judge prompt as one user message, in JSON, at temperature 0, for each gold and for the vague answers", async () => {
    const registry = createAiRegistry(env());
    const input = await fixture(["--contenders", "lifeline,no-memory", "--vague", "3"]);
    const from = fake.requests.length;
    const report = await runAnswersEval(input.options, { ...input, registry, judge: "gpt-4o-mini", database });

    const requests = fake.requests.slice(from).filter((r) => r.path.endsWith("/chat/completions"));
    expect(requests.filter((r) => r.refused !== null)).toEqual([]);
    const judged = requests.filter((r) => isJudge(r.body as ChatRequest));
    // 7 answers × 2 contenders, a second call for the 2 corrected golds, and 3 vague answers.
    expect(judged).toHaveLength(7 * 2 + 2 * 2 + 3);
    for (const request of judged) {
      expect(request.body).toMatchObject({
        model: "gpt-4o-mini",
        temperature: 0,
        response_format: { type: "json_object" },
      });
      const messages = (request.body as ChatRequest).messages;
      expect(messages).toHaveLength(1);
      expect(messages[0]?.role).toBe("user");
    }
    const dog = report.perQuestion.find((q) => q.id === "locomo_0_qa0");
    expect(judged.map((r) => (r.body as ChatRequest).messages[0]?.content)).toContain(
      judgePrompt("What is the name of Priya's dog?", "Biscuit", "Biscuit"),
    );
    expect(dog?.answers.lifeline).toMatchObject({ answer: "Biscuit", f1: 1, judge: true, judgeCorrected: true });
    expect(report.judge).toMatchObject({ model: "openai-compatible/gpt-4o-mini", temperature: 0 });
    expect(report.judge?.prompt).toMatch(/mem0/);
    // The vague answers: "A dog's name" names no "Biscuit"; the fixture's judge accepts none of the three.
    expect(report.vagueAnswers).toEqual({ judged: 3, accepted: 0, errors: 0, acceptanceRate: 0 });
    // "Biscuit" is right for the dog's name and for who waited at the finish line: 2 of 7.
    expect(report.contenders[0]?.overall.judge).toBeCloseTo(2 / 7, 12);
    expect(report.contenders[0]?.overall.judgeCorrected).toBeCloseTo(2 / 7, 12);
    expect(report.budget.spent).toBeGreaterThan(0);
  });

  it("stops before the budget is spent: no call starts that its estimate would take past it", async () => {
    const registry = createAiRegistry(env());
    // Room for the first turn's estimate and a little more: the fake reports 12 tokens a call, so a
    // few questions are answered and judged before the next turn's estimate no longer fits.
    const [first] = (await loadAnswerSamples(FIXTURE))[0]?.questions ?? [];
    const limit = estimateTurn({ message: first?.question ?? "", memoryEnabled: true }) + 100;
    const input = await fixture(["--contenders", "lifeline", "--budget", String(limit), "--vague", "0"]);
    const from = fake.requests.length;
    const report = await runAnswersEval(input.options, { ...input, registry, judge: "gpt-4o-mini", database });

    expect(report.budget.stoppedByBudget).toBe(true);
    expect(report.budget.spent).toBeLessThanOrEqual(limit);
    const chats = fake.requests.slice(from).filter((r) => r.path.endsWith("/chat/completions"));
    expect(report.dataset.questions).toBeGreaterThan(0);
    expect(report.dataset.questions).toBeLessThan(7);
    // Each answered question made its turn's call and its judge call(s); nothing after the stop.
    const answered = report.perQuestion.flatMap((q) => Object.values(q.answers));
    const judgeCalls = chats.filter((r) => isJudge(r.body as ChatRequest)).length;
    expect(chats.length - judgeCalls).toBe(answered.length);
  });

  it("dry run: prints the calls and tokens it would make, and makes none", async () => {
    const from = fake.requests.length;
    const lines: string[] = [];
    const log = vi.spyOn(console, "log").mockImplementation((line: string) => void lines.push(line));
    try {
      const code = await runAnswersCli(
        [...fixtureArgs, "--dry-run", "--vague", "2", "--budget", "100"],
        { ...env() },
        process.cwd(),
      );
      expect(code).toBe(0);
    } finally {
      log.mockRestore();
    }
    expect(fake.requests.length).toBe(from);
    const text = lines.join("\n");
    expect(text).toMatch(/dry run: 7 questions of 1 sample\(s\), contenders lifeline, full-context, no-memory/);
    expect(text).toMatch(/chat turn: lifeline\s+7 calls/);
    expect(text).toMatch(/chat turn: full-context\s+7 calls/);
    // One judge call per answer, another per corrected gold: (7 + 2) × 3 contenders.
    expect(text).toMatch(/judge\s+27 calls/);
    expect(text).toMatch(/judge: vague answers\s+2 calls/);
    expect(text).toMatch(/budget 100: the run would stop before the end/);
  });
});
