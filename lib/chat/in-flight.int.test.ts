/**
 * A chat turn counts as in flight (in-flight.ts) from its start until its answer is settled, and a
 * refused turn not at all once refused: the in-process import runner waits on that count.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { logger } from "@/core/logger";
import { setDatabase } from "@/db/client";
import { createUser } from "@/db/queries/users";
import { messages } from "@/db/schema";
import { createAiRegistry, setAiRegistry } from "@/lib/ai/registry";
import { afterResponseIdle } from "@/lib/jobs/after-response";
import { getInProcessRunner, processDispatcher } from "@/lib/runtime";
import { chatBody } from "@/lib/validation/chat";
import { DB_KINDS } from "@/tests/db";
import { registerAndSignIn } from "@/tests/http-client";
import { useTestDatabase } from "@/tests/test-database";
import { useTestServer } from "@/tests/test-server";
import { chatTurnsInFlight } from "./in-flight";
import { runChatTurn } from "./turn";

describe.each(DB_KINDS)("a chat turn in flight on %s", (kind) => {
  const database = useTestDatabase(kind);
  const ai = createAiRegistry({ LIFELINE_OFFLINE_DELAY_MS: "0" });

  beforeAll(() => {
    setDatabase(database);
    setAiRegistry(ai);
  });
  afterAll(async () => {
    await afterResponseIdle();
    await getInProcessRunner().idle();
    setAiRegistry(undefined);
    setDatabase(undefined);
  });

  function turn(userId: string, body: unknown) {
    return runChatTurn(database.db, ai, {
      userId,
      body: chatBody.parse(body),
      signal: new AbortController().signal,
      log: logger,
      dispatcher: processDispatcher("in-process"),
    });
  }

  it("counts from the turn's start until its answer is settled", async () => {
    const user = await createUser(database.db, { email: `flight-${kind}@example.com`, name: "F", passwordHash: null });
    const turns = chatTurnsInFlight();
    const begin = turns.begin.bind(turns);
    // The answer's status, read from the moment the turn ends (a query issued then, before any later write).
    let atEnd: Promise<string | undefined> | undefined;
    const spy = vi.spyOn(turns, "begin").mockImplementation(() => {
      const end = begin();
      return () => {
        atEnd ??= database.db
          .select({ status: messages.status })
          .from(messages)
          .where(and(eq(messages.userId, user.id), eq(messages.role, "assistant")))
          .then((rows) => rows[0]?.status);
        end();
      };
    });
    try {
      expect(turns.size).toBe(0);
      const started = turn(user.id, { message: { text: "I live in Lisbon." } });
      expect(turns.size).toBe(1);
      const response = await started;
      const idle = turns.idle(performance.now() + 30_000);
      await response.text();
      expect(await idle).toBe(true);
      expect(await atEnd).toBe("complete");
      expect(turns.size).toBe(0);
    } finally {
      spy.mockRestore();
    }
  });

  it("no longer counts a turn once it is refused", async () => {
    const user = await createUser(database.db, { email: `refused-${kind}@example.com`, name: "R", passwordHash: null });
    const refused = turn(user.id, {
      conversationId: "00000000-0000-4000-8000-000000000000",
      message: { text: "Hello?" },
    });
    expect(chatTurnsInFlight().size).toBe(1);
    await expect(refused).rejects.toMatchObject({ code: "not_found:conversation" });
    expect(chatTurnsInFlight().size).toBe(0);
  });
});

describe.each(DB_KINDS)("POST /api/chat in flight on %s", (kind) => {
  const context = useTestServer(kind);

  it("counts one turn from the request's arrival to its settle; a refused request stops counting with its response", async () => {
    const turns = chatTurnsInFlight();
    const { client } = await registerAndSignIn(context.server.url, `flight-http-${kind}`);
    const begin = vi.spyOn(turns, "begin");
    try {
      const bad = await client.request("POST", "/api/chat", { json: { message: { text: 5 } } });
      expect(bad.status).toBe(400);
      expect(turns.size).toBe(0);
      const anonymous = await fetch(`${context.server.url}/api/chat`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ message: { text: "Hi" } }),
      });
      expect(anonymous.status).toBe(401);
      expect(turns.size).toBe(0);
      expect(begin).toHaveBeenCalledTimes(2);

      const answered = await client.request("POST", "/api/chat", { json: { message: { text: "I live in Lisbon." } } });
      expect(answered.status).toBe(200);
      expect(await turns.idle(performance.now() + 30_000)).toBe(true);
      // The arrival's count is the turn's: no second one.
      expect(begin).toHaveBeenCalledTimes(3);
      const [row] = await context.database.db
        .select({ status: messages.status })
        .from(messages)
        .where(
          and(
            eq(messages.conversationId, answered.headers.get("x-conversation-id") ?? ""),
            eq(messages.role, "assistant"),
          ),
        );
      expect(row?.status).toBe("complete");
    } finally {
      begin.mockRestore();
      await afterResponseIdle();
      await getInProcessRunner().idle();
    }
  });
});
