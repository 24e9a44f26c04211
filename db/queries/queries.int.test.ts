/** Ownership lives in the query: every function on owned data, exercised as owner and as someone else. */
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { selectRows } from "@/db/client";
import { lifelineAdapter } from "@/lib/auth/config";
import { DB_KINDS } from "@/tests/db";
import { snapshot } from "@/tests/security/db-snapshot";
import { useTestDatabase } from "@/tests/test-database";
import { listLinkedProviders, updateOAuthTokens } from "./accounts";
import { createConversation, getConversation, listConversations } from "./conversations";
import { createMessage, createMessages, getMessage, listBranch, listMessages } from "./messages";
import { createNote, deleteNote, listNotes } from "./notes";
import { createUser, findUserForSignIn, getAccount, getPasswordHash, setPasswordHash, updateAccount } from "./users";

describe.each(DB_KINDS)("db/queries on %s", (kind) => {
  const database = useTestDatabase(kind);
  let alice: string;
  let bob: string;

  beforeAll(async () => {
    alice = (await createUser(database.db, { email: `alice-${kind}@example.com`, name: "Alice", passwordHash: "h1" }))
      .id;
    bob = (await createUser(database.db, { email: `bob-${kind}@example.com`, name: null, passwordHash: null })).id;
  });

  const rejects = async (promise: Promise<unknown>, code: string) => {
    await expect(promise).rejects.toMatchObject({ code });
  };

  describe("users", () => {
    it("creates, finds case-insensitively, refuses a duplicate email with conflict:email", async () => {
      const { db } = database;
      expect((await findUserForSignIn(db, { email: `ALICE-${kind}@example.com` }))?.id).toBe(alice);
      expect(await findUserForSignIn(db, { email: "nobody@example.com" })).toBeNull();
      const before = await snapshot(database);
      await rejects(
        createUser(db, { email: `alice-${kind}@example.com`, name: "Again", passwordHash: null }),
        "conflict:email",
      );
      expect(await snapshot(database)).toEqual(before);
    });

    it("reads and updates only the given user; an email taken by another is conflict:email", async () => {
      const { db } = database;
      expect(await getAccount(db, { userId: alice })).toMatchObject({ id: alice, name: "Alice", hasPassword: true });
      expect(await getAccount(db, { userId: bob })).toMatchObject({ id: bob, hasPassword: false });
      const updated = await updateAccount(db, { userId: bob, patch: { name: "Bob", memoryEnabledDefault: false } });
      expect(updated).toMatchObject({ name: "Bob", memoryEnabledDefault: false });
      expect((await getAccount(db, { userId: alice })).name).toBe("Alice");
      await rejects(
        updateAccount(db, { userId: bob, patch: { email: `alice-${kind}@example.com` } }),
        "conflict:email",
      );
      await rejects(getAccount(db, { userId: randomUUID() }), "not_found:user");
      await rejects(updateAccount(db, { userId: randomUUID(), patch: { name: "x" } }), "not_found:user");
    });

    it("password hashes per user", async () => {
      const { db } = database;
      await setPasswordHash(db, { userId: bob, passwordHash: "h2" });
      expect(await getPasswordHash(db, { userId: bob })).toBe("h2");
      expect(await getPasswordHash(db, { userId: alice })).toBe("h1");
      await rejects(setPasswordHash(db, { userId: randomUUID(), passwordHash: "x" }), "not_found:user");
    });
  });

  describe("conversations and messages", () => {
    it("a foreign or missing conversation is not_found:conversation, and nothing is written", async () => {
      const { db } = database;
      const conversation = await createConversation(db, { userId: alice, title: "Alice's" });
      expect((await getConversation(db, { userId: alice, conversationId: conversation.id })).title).toBe("Alice's");
      await rejects(getConversation(db, { userId: bob, conversationId: conversation.id }), "not_found:conversation");
      await rejects(getConversation(db, { userId: alice, conversationId: randomUUID() }), "not_found:conversation");
      expect((await listConversations(db, { userId: bob })).conversations.map((c) => c.id)).not.toContain(
        conversation.id,
      );
      expect((await listConversations(db, { userId: alice })).conversations.map((c) => c.id)).toContain(
        conversation.id,
      );

      const before = await snapshot(database);
      await rejects(
        createMessage(db, { userId: bob, conversationId: conversation.id, role: "user", content: "sneaky" }),
        "not_found:conversation",
      );
      await rejects(listMessages(db, { userId: bob, conversationId: conversation.id }), "not_found:conversation");
      expect(await snapshot(database)).toEqual(before);

      const message = await createMessage(db, {
        userId: alice,
        conversationId: conversation.id,
        role: "assistant",
        content: "hello",
        parts: [{ type: "text", text: "hello" }],
        model: "offline/echo",
        status: "streaming",
      });
      expect(message).toMatchObject({
        userId: alice,
        conversationId: conversation.id,
        role: "assistant",
        content: "hello",
        parts: [{ type: "text", text: "hello" }],
        model: "offline/echo",
        status: "streaming",
        error: null,
      });
      expect((await getMessage(db, { userId: alice, messageId: message.id })).id).toBe(message.id);
      await rejects(getMessage(db, { userId: bob, messageId: message.id }), "not_found:message");
      expect((await listMessages(db, { userId: alice, conversationId: conversation.id })).map((m) => m.id)).toEqual([
        message.id,
      ]);
    });

    it("a branch follows the parent links: another version's messages are not in it", async () => {
      const { db } = database;
      const conversation = await createConversation(db, { userId: alice });
      const owner = { userId: alice, conversationId: conversation.id };
      const [q1, a1] = await createMessages(db, {
        ...owner,
        messages: [
          { role: "user", content: "q1" },
          { role: "assistant", content: "a1" },
        ],
      });
      const [q2] = await createMessages(db, {
        ...owner,
        messages: [
          { role: "user", content: "q2" },
          { role: "assistant", content: "a2" },
        ],
      });
      // A version of q2, under a1: the conversation continues there.
      const [q2b, a2b] = await createMessages(db, {
        ...owner,
        parentMessageId: a1?.id ?? null,
        messages: [
          { role: "user", content: "q2b" },
          { role: "assistant", content: "a2b" },
        ],
      });
      const contents = (rows: { content: string }[]) => rows.map((m) => m.content);
      expect(q2b?.parentMessageId).toBe(a1?.id);
      expect(a2b?.parentMessageId).toBe(q2b?.id);
      expect(contents(await listBranch(db, { ...owner, limit: 10 }))).toEqual(["q1", "a1", "q2b", "a2b"]);
      expect(contents(await listBranch(db, { ...owner, throughId: q2?.id, limit: 10 }))).toEqual(["q1", "a1", "q2"]);
      expect(contents(await listBranch(db, { ...owner, limit: 2 }))).toEqual(["q2b", "a2b"]);
      // The next message continues the current branch (after a2b).
      const [q3] = await createMessages(db, { ...owner, messages: [{ role: "user", content: "q3" }] });
      expect(q3?.parentMessageId).toBe(a2b?.id);
      // Another user's, or another conversation's, branch: nothing.
      expect(await listBranch(db, { userId: bob, conversationId: conversation.id, limit: 10 })).toEqual([]);
      const other = await createConversation(db, { userId: alice });
      expect(await listBranch(db, { userId: alice, conversationId: other.id, throughId: q1?.id, limit: 10 })).toEqual(
        [],
      );
    });

    it("the history window: the latest messages, oldest first, of the owner only", async () => {
      const { db } = database;
      const conversation = await createConversation(db, { userId: alice });
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const role = i % 2 === 0 ? "user" : "assistant";
        ids.push(
          (await createMessage(db, { userId: alice, conversationId: conversation.id, role, content: `m${i}` })).id,
        );
      }
      const recent = (userId: string, limit: number) =>
        listBranch(db, { userId, conversationId: conversation.id, limit }).then((rows) => rows.map((m) => m.id));
      expect(await recent(alice, 3)).toEqual(ids.slice(2));
      expect(await recent(alice, 10)).toEqual(ids);
      expect(await recent(bob, 10)).toEqual([]);
    });

    it("a turn's messages in one statement: stored in the order given, even within one clock tick; foreign → nothing", async () => {
      const { db } = database;
      const conversation = await createConversation(db, { userId: alice });
      const before = await snapshot(database);
      await rejects(
        createMessages(db, {
          userId: bob,
          conversationId: conversation.id,
          messages: [
            { role: "user", content: "q" },
            { role: "assistant", content: "" },
          ],
        }),
        "not_found:conversation",
      );
      expect(await snapshot(database)).toEqual(before);
      const order: string[] = [];
      for (let turn = 0; turn < 3; turn++) {
        const created = await createMessages(db, {
          userId: alice,
          conversationId: conversation.id,
          messages: [
            { role: "user", content: `question ${turn}` },
            { role: "assistant", content: "", model: "offline/echo", status: "streaming" },
          ],
        });
        expect(created.map((m) => [m.role, m.status])).toEqual([
          ["user", "complete"],
          ["assistant", "streaming"],
        ]);
        // One statement, one now(): the answer is stored a microsecond after the question (a Date
        // shows only milliseconds, so the database compares them).
        const [later] = await selectRows<{ later: boolean }>(
          db,
          sql`SELECT (SELECT created_at FROM messages WHERE id = ${created[1]?.id ?? null}::uuid) >
                     (SELECT created_at FROM messages WHERE id = ${created[0]?.id ?? null}::uuid) AS later`,
        );
        expect(later?.later).toBe(true);
        order.push(...created.map((m) => m.id));
      }
      expect((await listMessages(db, { userId: alice, conversationId: conversation.id })).map((m) => m.id)).toEqual(
        order,
      );
      expect(
        (await listBranch(db, { userId: alice, conversationId: conversation.id, limit: 3 })).map((m) => m.id),
      ).toEqual(order.slice(3));
    });
  });

  describe("notes", () => {
    it("are created, listed and deleted only by the message's owner", async () => {
      const { db } = database;
      const conversation = await createConversation(db, { userId: alice });
      const message = await createMessage(db, {
        userId: alice,
        conversationId: conversation.id,
        role: "user",
        content: "m",
      });

      const before = await snapshot(database);
      await rejects(createNote(db, { userId: bob, messageId: message.id, content: "x" }), "not_found:message");
      await rejects(listNotes(db, { userId: bob, messageId: message.id }), "not_found:message");
      expect(await snapshot(database)).toEqual(before);

      const note = await createNote(db, { userId: alice, messageId: message.id, content: "mine" });
      expect(note).toMatchObject({ messageId: message.id, content: "mine" });
      expect(note).not.toHaveProperty("userId");
      const [row] = await database.query<{ user_id: string }>("SELECT user_id FROM message_notes WHERE id = $1", [
        note.id,
      ]);
      expect(row?.user_id).toBe(alice);
      expect((await listNotes(db, { userId: alice, messageId: message.id })).map((n) => n.id)).toEqual([note.id]);

      const beforeDelete = await snapshot(database);
      await rejects(deleteNote(db, { userId: bob, noteId: note.id }), "not_found:note");
      await rejects(deleteNote(db, { userId: alice, noteId: randomUUID() }), "not_found:note");
      expect(await snapshot(database)).toEqual(beforeDelete);
      await deleteNote(db, { userId: alice, noteId: note.id });
      expect(await listNotes(db, { userId: alice, messageId: message.id })).toEqual([]);
    });
  });

  describe("accounts (Auth.js adapter + token refresh)", () => {
    it("links through the adapter, lists providers per user, refreshes tokens of the owner's account only", async () => {
      const { db } = database;
      const adapter = lifelineAdapter(db);
      expect((await adapter.getUserByEmail?.(`ALICE-${kind}@EXAMPLE.com`))?.id).toBe(alice);
      const created = await adapter.createUser?.({
        id: "ignored",
        email: `Carol-${kind}@Example.com`,
        emailVerified: null,
      });
      expect(created?.email).toBe(`carol-${kind}@example.com`);
      expect(created?.id).toMatch(/^[0-9a-f-]{36}$/);

      await adapter.linkAccount?.({
        userId: alice,
        type: "oidc",
        provider: "google",
        providerAccountId: `g-${kind}`,
        access_token: "a1",
        refresh_token: "r1",
        expires_at: 100,
        scope: "openid",
        token_type: "bearer",
      });
      expect(await listLinkedProviders(db, { userId: alice })).toEqual(["google"]);
      expect(await listLinkedProviders(db, { userId: bob })).toEqual([]);

      const tokens = { access_token: "a2", expires_at: 200, scope: "openid gmail", token_type: "bearer" };
      await updateOAuthTokens(db, { userId: bob, provider: "google", providerAccountId: `g-${kind}`, tokens });
      const q = "SELECT access_token, refresh_token, expires_at FROM accounts WHERE provider_account_id = $1";
      expect((await database.query(q, [`g-${kind}`]))[0]).toEqual({
        access_token: "a1",
        refresh_token: "r1",
        expires_at: 100,
      });

      await updateOAuthTokens(db, { userId: alice, provider: "google", providerAccountId: `g-${kind}`, tokens });
      expect((await database.query(q, [`g-${kind}`]))[0]).toEqual({
        access_token: "a2",
        refresh_token: "r1",
        expires_at: 200,
      });
    });
  });
});
