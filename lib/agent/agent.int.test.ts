/**
 * The Gmail agent on both databases, against the demo mailbox: the graph, the offline plan, the
 * tools and their log, approval. The model boundary is checked with a scripted chat model: its
 * FIRST input is the chat turn's assembled context — the memory lines the trace includes, and the
 * previous user and assistant messages (the earlier app sent neither).
 */

import { BaseChatModel, type BindToolsInput } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { and, eq, sql } from "drizzle-orm";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { agentConfig } from "@/core/config";
import { AppError } from "@/core/errors";
import type { Logger } from "@/core/logger";
import { type Db, selectRows } from "@/db/client";
import { demoMailMessages, gmailOperations } from "@/db/schema";
import { createAiRegistry } from "@/lib/ai/registry";
import { assembleContext } from "@/lib/memory/retrieval/assemble";
import { OfflineAgentChatModel } from "@/lib/offline/agent/chat-model";
import { DB_KINDS } from "@/tests/db";
import { createConversation, createUser, insertMemories, sparseVector, TEST_EMBEDDER } from "@/tests/fixtures/memories";
import {
  chatCompletion,
  chatCompletionStream,
  type ScriptedReply,
  textPieces,
} from "@/tests/fixtures/openai-compatible";
import { useTestDatabase } from "@/tests/test-database";
import {
  approvePendingSend,
  declinePendingSend,
  editPendingSend,
  getPendingSend,
  INTERRUPTED_SEND_ERROR,
  recoverInterruptedSends,
  unfamiliarRecipients,
} from "./approval";
import { buildAgentGraph, finalAnswer, stepLimitMessage } from "./graph";
import { demoMailbox } from "./mailbox/demo";
import type { Draft } from "./mailbox/types";
import { toLangChainMessages } from "./messages";
import { agentChatModel } from "./model";
import { AgentRecorder } from "./recorder";
import { streamAgentTurn } from "./stream";
import { createMailTools, MAIL_TOOL_NAMES } from "./tools";

const NOW = new Date("2026-11-30T12:00:00.000Z");

/** A chat model that answers from a script and keeps every input it received. */
class ScriptedChatModel extends BaseChatModel {
  readonly inputs: BaseMessage[][] = [];
  constructor(private readonly replies: AIMessage[]) {
    super({});
  }
  _llmType() {
    return "scripted";
  }
  override bindTools(tools: BindToolsInput[]) {
    return this.withConfig({ tools } as Partial<this["ParsedCallOptions"]>);
  }
  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.inputs.push(messages);
    const script = this.replies[Math.min(this.inputs.length - 1, this.replies.length - 1)] ?? new AIMessage("done");
    // A fresh message per call, with call ids of its own, as a real model's would be.
    const reply = new AIMessage({
      content: script.content,
      tool_calls: (script.tool_calls ?? []).map((call) => ({ ...call, id: `${call.id}-${this.inputs.length}` })),
    });
    return { generations: [{ text: typeof reply.content === "string" ? reply.content : "", message: reply }] };
  }
}

const FAKE_OPENAI = "http://fake-openai.test/v1";

/**
 * The agent's model on a scripted OpenAI-compatible server: first a search_emails call, then `answer`;
 * streamed when the call asks for a stream. Reached through the registry's fetch.
 */
function scriptedModel(bodies: unknown[], answer: string) {
  const fetch: typeof globalThis.fetch = async (_input, init) => {
    const body = JSON.parse(String(init?.body)) as { stream?: boolean };
    bodies.push(body);
    const id = `chat-${bodies.length}`;
    const usage = { prompt_tokens: 10, completion_tokens: 5 };
    const reply: ScriptedReply =
      bodies.length === 1
        ? {
            content: null,
            tool_calls: [
              {
                id: "call_1",
                type: "function",
                function: { name: "search_emails", arguments: '{"query":"from:maya","max":5}' },
              },
            ],
          }
        : { content: answer };
    // A streamed call (the chat's, through LangGraph's "messages" mode) gets server-sent events.
    const meta = { id, model: "gpt-test", usage };
    return body.stream ? chatCompletionStream(reply, meta) : chatCompletion(reply, meta);
  };
  return agentChatModel({
    client: createAiRegistry({ OPENAI_BASE_URL: FAKE_OPENAI }, { fetch }).openAIClientOptions(),
    offlineModel: null,
    modelId: "gpt-test",
    temperature: 0.3,
  });
}
const openai = setupServer();
beforeAll(() => openai.listen({ onUnhandledRequest: "error" }));
afterEach(() => openai.resetHandlers());
afterAll(() => openai.close());

describe.each(DB_KINDS)("the Gmail agent on %s (demo mailbox)", (kind) => {
  const database = useTestDatabase(kind);
  let db: Db;
  beforeAll(() => {
    db = database.db;
  });

  async function run(userId: string, request: string, options: { model?: BaseChatModel; max?: number } = {}) {
    const conversationId = await createConversation(db, userId);
    const mailbox = demoMailbox(db, userId, () => NOW);
    const tools = createMailTools({ db, mailbox, context: { userId, conversationId, messageId: null } });
    const graph = buildAgentGraph({
      model: options.model ?? new OfflineAgentChatModel(),
      tools,
      maxModelCalls: options.max ?? 6,
    });
    const recorder = new AgentRecorder();
    const state = await graph.invoke(
      {
        messages: toLangChainMessages([
          { role: "system", content: "You are Lifeline in agent mode." },
          { role: "user", content: request },
        ]),
      },
      { callbacks: [recorder] },
    );
    return { answer: finalAnswer(state.messages), steps: recorder.steps, conversationId };
  }

  const operations = (userId: string) =>
    db.select().from(gmailOperations).where(eq(gmailOperations.userId, userId)).orderBy(gmailOperations.createdAt);

  it("the agent's first model input is the assembled context: included memory lines and the previous messages", async () => {
    const userId = await createUser(db, "Ada");
    const conversationId = await createConversation(db, userId);
    await insertMemories(db, [
      { userId, content: "Maya is my sister", importance: 0.9, embedding: sparseVector({ 0: 1 }) },
      { userId, content: "I prefer short emails", importance: 0.8, embedding: sparseVector({ 0: 0.9, 1: 0.4 }) },
      { userId, content: "Unrelated: I collect stamps", importance: 0.2, embedding: sparseVector({ 7: 1 }) },
    ]);
    const context = await assembleContext(db, {
      userId,
      conversationId,
      message: "Find emails from my sister",
      history: [
        { id: crypto.randomUUID(), role: "user", content: "Hi, I'm planning a dinner with family" },
        { id: crypto.randomUUID(), role: "assistant", content: "Sounds lovely! Who is coming?" },
      ],
      mode: "agent",
      memoryEnabled: true,
      embed: async () => sparseVector({ 0: 1 }),
      embeddingModel: TEST_EMBEDDER,
      now: NOW,
    });
    expect(context.trace.memoryLines.length).toBeGreaterThan(0);

    const model = new ScriptedChatModel([
      new AIMessage({
        content: "",
        tool_calls: [{ id: "c1", name: "search_emails", args: { query: "from:maya" }, type: "tool_call" }],
      }),
      new AIMessage("Here they are."),
    ]);
    const tools = createMailTools({
      db,
      mailbox: demoMailbox(db, userId, () => NOW),
      context: { userId, conversationId, messageId: null },
    });
    const recorder = new AgentRecorder();
    const graph = buildAgentGraph({ model, tools, maxModelCalls: 6 });
    await graph.invoke({ messages: toLangChainMessages(context.messages) }, { callbacks: [recorder] });

    const [first] = model.inputs;
    const system = String(first?.[0]?.content);
    for (const line of context.trace.memoryLines) expect(system).toContain(line);
    expect(system).not.toContain("I collect stamps");
    expect(first?.map((m) => [m.getType(), m.content])).toEqual([
      ["system", context.messages[0]?.content],
      ["human", "Hi, I'm planning a dinner with family"],
      ["ai", "Sounds lovely! Who is coming?"],
      ["human", "Find emails from my sister"],
    ]);
    // The recorder captured the same input at the boundary, and both model calls in order.
    const modelSteps = recorder.steps.filter((step) => step.type === "model");
    expect(modelSteps).toHaveLength(2);
    expect(modelSteps[0]?.type === "model" && modelSteps[0].input.map((m) => m.content)).toEqual(
      first?.map((m) => m.content),
    );
    expect(modelSteps[0]?.type === "model" && modelSteps[0].tools).toEqual([...MAIL_TOOL_NAMES]);
    expect(recorder.steps.map((step) => (step.type === "model" ? `model ${step.index}` : `tool ${step.name}`))).toEqual(
      ["model 1", "tool search_emails", "model 2"],
    );
  });

  it("offline: 'find emails from Maya' searches the demo mailbox (seeded on first use) and lists what it found", async () => {
    const userId = await createUser(db, "Bea");
    const { answer, steps } = await run(userId, "Find emails from Maya");
    expect(answer).toMatch(/^I found 2 emails from Maya:/);
    expect(answer).toContain("Dinner on Friday?");
    expect(answer).toContain("Photos from the hike");
    const tool = steps.find((step) => step.type === "tool");
    expect(tool?.type === "tool" && [tool.name, tool.input]).toEqual([
      "search_emails",
      { query: "from:Maya", max: 10 },
    ]);
    const [logged] = await operations(userId);
    expect(logged).toMatchObject({ operation: "search_emails", mailbox: "demo", status: "succeeded", error: null });
    expect(logged?.latencyMs).toBeGreaterThanOrEqual(0);
    expect(logged?.result).toMatchObject({ count: 2 });
  });

  it("offline: 'summarise my latest email' searches, reads, then summarises the newest message", async () => {
    const userId = await createUser(db, "Cy");
    const { answer, steps } = await run(userId, "Can you summarise my latest email?");
    expect(steps.filter((s) => s.type === "tool").map((s) => s.type === "tool" && s.name)).toEqual([
      "search_emails",
      "read_email",
    ]);
    expect(answer).toContain('from Maya Chen, "Dinner on Friday?"');
    expect(answer).toContain("Are you free for dinner on Friday at 7:30?");
  });

  it("offline: a saved draft is listed by 'show my drafts' and opened, with its body, by 'open the draft to Tom'", async () => {
    const userId = await createUser(db, "Dara");
    expect((await run(userId, "Show my drafts")).answer).toBe("You have no saved drafts.");
    const saved = await run(userId, "Draft a reply to Tom saying 10 works, see you at the gym");
    expect(saved.answer).toMatch(/^I saved a draft to Tom Becker/);

    const listed = await run(userId, "Show my drafts");
    expect(listed.steps.filter((s) => s.type === "tool").map((s) => s.type === "tool" && s.name)).toEqual([
      "list_drafts",
    ]);
    expect(listed.answer).toMatch(/^You have 1 saved draft:/);
    expect(listed.answer).toContain("**Re: Bouldering Saturday morning** — to Tom Becker");

    const opened = await run(userId, "Open the draft to Tom");
    const tools = opened.steps.filter((s) => s.type === "tool");
    expect(tools.map((s) => s.type === "tool" && s.name)).toEqual(["list_drafts", "read_draft"]);
    expect(opened.answer).toContain("Your draft to Tom Becker, “Re: Bouldering Saturday morning”");
    expect(opened.answer).toContain("> 10 works, see you at the gym.");
    // The log keeps the draft's size, never its body.
    const logged = (await operations(userId)).filter((op) => op.operation === "read_draft");
    expect(logged[0]?.result).toMatchObject({ bodyChars: "10 works, see you at the gym.".length });
    expect(JSON.stringify(logged[0]?.result)).not.toContain("see you at the gym");

    // Only a draft opens as one: an email's id (or another user's draft) is not found.
    const mailbox = demoMailbox(db, userId, () => NOW);
    const [inbox] = await mailbox.search("in:inbox", 1);
    await expect(mailbox.readDraft(inbox?.id ?? "")).rejects.toMatchObject({ code: "not_found" });
    const [draft] = await mailbox.listDrafts(5);
    const other = demoMailbox(db, await createUser(db, "Eve"), () => NOW);
    await expect(other.readDraft(draft?.id ?? "")).rejects.toMatchObject({ code: "not_found" });
    expect(await other.listDrafts(5)).toEqual([]);
  });

  it("send waits for approval; Approve sends exactly the shown draft once, in Tom's thread; a second approval is refused", async () => {
    const userId = await createUser(db, "Dee");
    const { answer } = await run(userId, "Reply to Tom saying 10 works for me, see you at the gym");
    const [tom] = await db
      .select()
      .from(demoMailMessages)
      .where(and(eq(demoMailMessages.userId, userId), eq(demoMailMessages.subject, "Bouldering Saturday morning")));
    expect(answer).toMatch(/^I prepared an email to Tom Becker .* for you to approve, edit or decline below\.$/);
    const sent = () =>
      db
        .select()
        .from(demoMailMessages)
        .where(
          and(eq(demoMailMessages.userId, userId), eq(demoMailMessages.subject, "Re: Bouldering Saturday morning")),
        );
    expect(await sent()).toEqual([]);

    const pending = (await operations(userId)).find((op) => op.operation === "send_email");
    expect(pending?.status).toBe("pending_confirmation");
    const shown = (await getPendingSend(db, { userId, operationId: pending?.id ?? "" })).draft;
    expect(shown).toEqual({
      to: ["Tom Becker <tom.becker@example.com>"],
      cc: [],
      bcc: [],
      subject: "Re: Bouldering Saturday morning",
      body: "10 works for me, see you at the gym.",
      thread: { threadId: tom?.threadId, inReplyTo: tom?.messageId, references: [tom?.messageId] },
    });

    // What was shown must be what is sent: a different draft is refused and nothing is sent.
    const mailboxFor = async () => demoMailbox(db, userId, () => NOW);
    await expect(
      approvePendingSend(db, {
        userId,
        operationId: pending?.id ?? "",
        shown: { ...shown, body: "other" },
        mailboxFor,
      }),
    ).rejects.toMatchObject({ code: "conflict:draft_changed" });
    expect(await sent()).toEqual([]);

    const approved = await approvePendingSend(db, { userId, operationId: pending?.id ?? "", shown, mailboxFor });
    expect(approved.status).toBe("succeeded");
    const [message, ...others] = await sent();
    expect(others).toEqual([]);
    expect(message).toMatchObject({ toAddresses: shown.to, body: shown.body, labels: ["SENT"] });
    // The demo mailbox threads as Gmail does: the reply joined Tom's conversation.
    expect(message).toMatchObject({
      threadId: tom?.threadId,
      inReplyTo: tom?.messageId,
      references: [tom?.messageId],
    });

    await expect(
      approvePendingSend(db, { userId, operationId: pending?.id ?? "", shown, mailboxFor }),
    ).rejects.toMatchObject({
      code: "conflict:succeeded",
    });
    expect(await sent()).toHaveLength(1);
  });

  it("an edit keeps a reply's thread; a subject edited away from the thread's starts its own, as in Gmail", async () => {
    const userId = await createUser(db, "Jo");
    await run(userId, "Reply to Maya saying see you at 8");
    const pending = (await operations(userId)).find((op) => op.operation === "send_email");
    const operationId = pending?.id ?? "";
    const { draft } = await getPendingSend(db, { userId, operationId });
    expect(draft.thread?.inReplyTo).toMatch(/^<.+@demo\.lifeline\.example\.com>$/);
    const edited = await editPendingSend(db, {
      userId,
      operationId,
      draft: { to: draft.to, cc: [], bcc: [], subject: "Friday", body: "See you at 8." },
    });
    expect(edited.draft.thread).toEqual(draft.thread);
    await approvePendingSend(db, {
      userId,
      operationId,
      shown: edited.draft,
      mailboxFor: async () => demoMailbox(db, userId, () => NOW),
    });
    const [sent] = await db
      .select()
      .from(demoMailMessages)
      .where(and(eq(demoMailMessages.userId, userId), eq(demoMailMessages.subject, "Friday")));
    expect(sent?.inReplyTo).toBe(draft.thread?.inReplyTo);
    expect(sent?.threadId).not.toBe(draft.thread?.threadId);
  });

  it("approving twice at the same time sends once", async () => {
    const userId = await createUser(db, "Eve");
    await run(userId, "Email Priya saying the churn numbers are attached");
    const pending = (await operations(userId)).find((op) => op.operation === "send_email");
    const shown = (await getPendingSend(db, { userId, operationId: pending?.id ?? "" })).draft;
    let sends = 0;
    const mailboxFor = async () => {
      const box = demoMailbox(db, userId, () => NOW);
      const send = (draft: Draft) => {
        sends += 1;
        return box.send(draft);
      };
      return { ...box, send };
    };
    const results = await Promise.allSettled([
      approvePendingSend(db, { userId, operationId: pending?.id ?? "", shown, mailboxFor }),
      approvePendingSend(db, { userId, operationId: pending?.id ?? "", shown, mailboxFor }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect(sends).toBe(1);
  });

  it("a draft edited in another tab between the approval's comparison and its claim is not sent: 409 draft_changed", async () => {
    const userId = await createUser(db, "Hal");
    await run(userId, "Email Priya saying the churn numbers are attached");
    const pending = (await operations(userId)).find((op) => op.operation === "send_email");
    const operationId = pending?.id ?? "";
    const shown = (await getPendingSend(db, { userId, operationId })).draft;
    const sent: Draft[] = [];
    const mailboxFor = async () => {
      const box = demoMailbox(db, userId, () => NOW);
      const send = (draft: Draft) => {
        sent.push(draft);
        return box.send(draft);
      };
      return { ...box, send };
    };
    const edit = { ...shown, body: "Edited in another tab." };
    let approval: Promise<unknown> = Promise.resolve();
    // The other tab's edit holds the row while the approval runs. On Postgres the approval has read
    // and compared the draft when its claim waits for the row; PGlite runs one transaction at a
    // time, so there the approval starts after the edit.
    await db.transaction(async (tx) => {
      await tx.select().from(gmailOperations).where(eq(gmailOperations.id, operationId)).for("update");
      approval = approvePendingSend(db, { userId, operationId, shown, mailboxFor });
      approval.catch(() => {});
      if (kind === "postgres") {
        await expect
          .poll(
            async () => {
              // Read outside the transaction: inside it, pg_stat_activity stays as it first read it.
              const [row] = await selectRows<{ waiting: number }>(
                db,
                sql`SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
              );
              return row?.waiting;
            },
            { timeout: 15_000 },
          )
          .toBe(1);
      }
      await editPendingSend(tx, { userId, operationId, draft: edit });
    });
    await expect(approval).rejects.toMatchObject({ code: "conflict:draft_changed" });
    expect(sent).toEqual([]);
    expect(await getPendingSend(db, { userId, operationId })).toMatchObject({
      status: "pending_confirmation",
      draft: { body: "Edited in another tab." },
    });
  });

  it("a send left approved by a stopped process is marked interrupted (maybe sent), never sending or re-approvable", async () => {
    const userId = await createUser(db, "Fay");
    await run(userId, "Email Priya saying the churn numbers are attached");
    const pending = (await operations(userId)).find((op) => op.operation === "send_email");
    const operationId = pending?.id ?? "";
    const shown = (await getPendingSend(db, { userId, operationId })).draft;
    // The process claims the send (pending → approved) and stops before the mailbox answers.
    const stopped = approvePendingSend(db, {
      userId,
      operationId,
      shown,
      mailboxFor: () => new Promise<never>(() => {}),
    });
    await expect.poll(async () => (await getPendingSend(db, { userId, operationId })).status).toBe("approved");
    void stopped;
    const log = { warn: () => {} } as unknown as Logger;

    // Within the bound (a send in progress) nothing changes.
    expect(await recoverInterruptedSends(db, { now: () => new Date(), log })).toBe(0);
    expect((await getPendingSend(db, { userId, operationId })).status).toBe("approved");

    const later = new Date(Date.now() + agentConfig.sendInterruptedAfterMs + 1_000);
    expect(await recoverInterruptedSends(db, { now: () => later, log })).toBe(1);
    expect(await getPendingSend(db, { userId, operationId })).toMatchObject({
      status: "failed",
      interrupted: true,
      error: INTERRUPTED_SEND_ERROR,
    });
    await expect(
      approvePendingSend(db, {
        userId,
        operationId,
        shown,
        mailboxFor: async () => demoMailbox(db, userId, () => NOW),
      }),
    ).rejects.toMatchObject({ code: "conflict:failed" });
    expect(await recoverInterruptedSends(db, { now: () => later, log })).toBe(0);
  });

  it("edit replaces the pending draft; decline sends nothing; another user's send is not found", async () => {
    const userId = await createUser(db, "Fay");
    const stranger = await createUser(db, "Gus");
    await run(userId, "Email Priya saying the report is late");
    const pending = (await operations(userId)).find((op) => op.operation === "send_email");
    const id = pending?.id ?? "";
    const edited = await editPendingSend(db, {
      userId,
      operationId: id,
      draft: {
        to: ["priya@northwind.example.com"],
        cc: [],
        bcc: [],
        subject: "Report",
        body: "It will be a day late.",
      },
    });
    expect(edited.draft.body).toBe("It will be a day late.");

    for (const attempt of [
      () => getPendingSend(db, { userId: stranger, operationId: id }),
      () => declinePendingSend(db, { userId: stranger, operationId: id }),
      () =>
        approvePendingSend(db, {
          userId: stranger,
          operationId: id,
          shown: edited.draft,
          mailboxFor: async () => demoMailbox(db, stranger),
        }),
      () => getPendingSend(db, { userId, operationId: "not-an-id" }),
    ]) {
      await expect(attempt()).rejects.toSatisfy((e: unknown) => e instanceof AppError && e.status === 404);
    }

    expect((await declinePendingSend(db, { userId, operationId: id })).status).toBe("cancelled");
    await expect(
      approvePendingSend(db, {
        userId,
        operationId: id,
        shown: edited.draft,
        mailboxFor: async () => demoMailbox(db, userId),
      }),
    ).rejects.toMatchObject({ code: "conflict:cancelled" });
    const sentCount = await db
      .select()
      .from(demoMailMessages)
      .where(and(eq(demoMailMessages.userId, userId), eq(demoMailMessages.subject, "Report")));
    expect(sentCount).toEqual([]);
  });

  it("a draft to an address the mailbox has never seen is named unfamiliar; a draft or another user's mail does not make it known", async () => {
    const userId = await createUser(db, "Jo");
    const other = await createUser(db, "Kit");
    await run(userId, "Reply to Maya saying see you at 8");
    const pending = (await operations(userId)).find((op) => op.operation === "send_email");
    const send = await getPendingSend(db, { userId, operationId: pending?.id ?? "" });
    expect(send.draft.to.join()).toContain("maya.chen@example.com");
    const mailboxFor = async () => demoMailbox(db, userId, () => NOW);
    expect(await unfamiliarRecipients(send, mailboxFor)).toEqual([]);

    const guessed = await editPendingSend(db, {
      userId,
      operationId: send.id,
      draft: { ...send.draft, to: ["maya@example.com"], cc: ["Tom Becker <TOM.BECKER@example.com>"] },
    });
    expect(await unfamiliarRecipients(guessed, mailboxFor)).toEqual(["maya@example.com"]);

    // A draft saved to the address, or mail in another user's mailbox, is no correspondence of this mailbox.
    await demoMailbox(db, userId, () => NOW).createDraft({ ...guessed.draft, subject: "Draft" });
    await demoMailbox(db, other, () => NOW).send({ ...guessed.draft, subject: "Theirs" });
    expect(await unfamiliarRecipients(guessed, mailboxFor)).toEqual(["maya@example.com"]);
    // Once written to, it is known.
    await demoMailbox(db, userId, () => NOW).send({ ...guessed.draft, subject: "Hello" });
    expect(await unfamiliarRecipients(guessed, mailboxFor)).toEqual([]);
  });

  it("one user's demo mailbox is invisible to another: search finds only their own, read of a foreign id fails", async () => {
    const alice = await createUser(db, "Hal");
    const bob = await createUser(db, "Ivy");
    const aliceBox = demoMailbox(db, alice, () => NOW);
    const [own] = await aliceBox.search("from:maya", 1);
    const bobBox = demoMailbox(db, bob, () => NOW);
    await expect(bobBox.read(own?.id ?? "")).rejects.toMatchObject({ code: "not_found" });
    await expect(bobBox.modifyLabels(own?.id ?? "", ["STARRED"], [])).rejects.toMatchObject({ code: "not_found" });
    expect((await bobBox.search("", 50)).every((mail) => mail.id !== own?.id)).toBe(true);
  });

  it("an OpenAI-compatible model (the same configuration as chat) drives the loop: tool call, result, answer", async () => {
    const userId = await createUser(db, "Lu");
    const bodies: {
      model: string;
      temperature: number;
      tools: { function: { name: string } }[];
      messages: { role: string; content: string }[];
    }[] = [];
    const model = scriptedModel(bodies, "You have 2 emails from Maya.");
    const { answer } = await run(userId, "Any emails from Maya?", { model });
    expect(answer).toBe("You have 2 emails from Maya.");
    expect(bodies).toHaveLength(2);
    expect(bodies[0]).toMatchObject({ model: "gpt-test", temperature: 0.3 });
    expect(bodies[0]?.tools.map((t) => t.function.name)).toContain("send_email");
    expect(bodies[0]?.messages.map((m) => m.role)).toEqual(["system", "user"]);
    // The second call carries the tool's real result from the demo mailbox.
    const toolReply = bodies[1]?.messages.find((m) => m.role === "tool");
    expect(toolReply?.content).toContain("Dinner on Friday?");
  });

  it("streams a streaming model's answer token by token, after the tool steps", async () => {
    const userId = await createUser(db, "Ren");
    const conversationId = await createConversation(db, userId);
    const tools = createMailTools({
      db,
      mailbox: demoMailbox(db, userId, () => NOW),
      context: { userId, conversationId, messageId: null },
    });
    const answer = "You have 2 emails from Maya, both about Friday.";
    const graph = buildAgentGraph({ model: scriptedModel([], answer), tools, maxModelCalls: 6 });
    const chunks: { type: string; [key: string]: unknown }[] = [];
    const recorder = new AgentRecorder();
    const result = await streamAgentTurn({
      graph,
      messages: toLangChainMessages([
        { role: "system", content: "agent" },
        { role: "user", content: "Any emails from Maya?" },
      ]),
      recorder,
      write: (chunk) => chunks.push(chunk),
    });
    const deltas = chunks.filter((c) => c.type === "text-delta").map((c) => String(c.delta));
    expect(deltas.length).toBe(textPieces(answer).length);
    expect(deltas.join("")).toBe(answer);
    const types = chunks.map((c) => c.type);
    expect(types.slice(0, 3)).toEqual(["tool-input-available", "tool-output-available", "text-start"]);
    expect(types.at(-1)).toBe("text-end");
    expect(result.text).toBe(answer);
    expect(result.parts.filter((p) => p.type === "text")).toEqual([{ type: "text", text: answer }]);
    // The debug record's model steps still get each whole reply: the tool call, then the answer.
    const calls = recorder.modelCalls();
    expect(calls).toHaveLength(2);
    expect(JSON.stringify(calls[0]?.output)).toContain("search_emails");
    expect(JSON.stringify(calls[1]?.output)).toContain(answer);
  });

  it("streams the steps as UI parts: tool calls with arguments, results, the approval card, then the answer", async () => {
    const userId = await createUser(db, "Mo");
    const conversationId = await createConversation(db, userId);
    const tools = createMailTools({
      db,
      mailbox: demoMailbox(db, userId, () => NOW),
      context: { userId, conversationId, messageId: null },
    });
    const graph = buildAgentGraph({ model: new OfflineAgentChatModel(), tools, maxModelCalls: 6 });
    const chunks: { type: string; [key: string]: unknown }[] = [];
    const result = await streamAgentTurn({
      graph,
      messages: toLangChainMessages([
        { role: "system", content: "agent" },
        { role: "user", content: "Reply to Tom saying see you at 10" },
      ]),
      recorder: new AgentRecorder(),
      write: (chunk) => chunks.push(chunk),
    });
    expect(
      chunks.map((c) => (c.type.startsWith("tool-") ? `${c.type} ${String(c.toolName ?? "")}`.trim() : c.type)),
    ).toEqual([
      "tool-input-available search_emails",
      "tool-output-available",
      "tool-input-available send_email",
      "tool-output-available",
      "data-mail-approval",
      "text-start",
      "text-delta",
      "text-end",
    ]);
    const approval = chunks.find((c) => c.type === "data-mail-approval")?.data as { operationId: string; draft: Draft };
    expect(approval.draft).toMatchObject({ to: ["Tom Becker <tom.becker@example.com>"], body: "See you at 10." });
    const [pending] = await db.select().from(gmailOperations).where(eq(gmailOperations.id, approval.operationId));
    expect(pending?.status).toBe("pending_confirmation");
    expect(result.text).toMatch(/for you to approve, edit or decline below/);
    expect(result.parts.map((p) => p.type)).toEqual(["dynamic-tool", "dynamic-tool", "data-mail-approval", "text"]);
  });

  it("the step limit stops a model that never stops calling tools, with a clear message", async () => {
    const userId = await createUser(db, "Jo");
    const looping = new ScriptedChatModel([
      new AIMessage({ content: "", tool_calls: [{ id: "x", name: "list_labels", args: {}, type: "tool_call" }] }),
    ]);
    const { answer, steps } = await run(userId, "labels forever", { model: looping, max: 3 });
    expect(answer).toBe(stepLimitMessage(3));
    expect(steps.filter((s) => s.type === "model")).toHaveLength(3);
  });

  it("demo labels: modify adds and removes; list shows system and the user's own", async () => {
    const userId = await createUser(db, "Kai");
    const box = demoMailbox(db, userId, () => NOW);
    const [mail] = await box.search("is:unread from:tom", 1);
    expect(mail?.unread).toBe(true);
    expect((await box.modifyLabels(mail?.id ?? "", ["STARRED"], ["UNREAD"])).labels).toEqual(["INBOX", "STARRED"]);
    expect(await box.search("is:unread from:tom", 1)).toEqual([]);
    const labels = await box.listLabels();
    expect(labels.filter((l) => l.type === "user").map((l) => l.name)).toEqual(["Travel", "Work"]);
    // Names in any case; a label the mailbox does not have is refused with the ones it has, as Gmail does.
    expect((await box.modifyLabels(mail?.id ?? "", ["travel"], [])).labels).toEqual(["INBOX", "STARRED", "Travel"]);
    await expect(box.modifyLabels(mail?.id ?? "", ["Receipts"], [])).rejects.toMatchObject({
      code: "invalid",
      userMessage: expect.stringMatching(/no label “Receipts”.*Travel, Work/),
    });
  });
});
