/**
 * Conversations over real HTTP: pagination, search, archive, rename, delete, and auto-titles; a change of
 * settings does not move a chat in the list (only a message does).
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createConversation, DEFAULT_CONVERSATION_TITLE, getConversation } from "@/db/queries/conversations";
import { createMessage } from "@/db/queries/messages";
import { conversations } from "@/db/schema";
import { createAiRegistry } from "@/lib/ai/registry";
import { DB_KINDS } from "@/tests/db";
import { registerAndSignIn } from "@/tests/http-client";
import { useTestServer } from "@/tests/test-server";
import { maybeTitleConversation } from "./title";

process.env.AUTH_SECRET ??= "conversations-test-secret-0123456789";

type Page = { conversations: { id: string; title: string }[]; nextCursor: string | null };

describe.each(DB_KINDS)("conversations on %s", (kind) => {
  const context = useTestServer(kind);

  it("pages through every conversation once, most recent first, and searches titles", async () => {
    const user = await registerAndSignIn(context.server.url, `pages-${kind}`);
    const created: string[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await user.client.request("POST", "/api/conversations", { json: { title: `Chat ${i} 100%_done` } });
      expect(res.status).toBe(201);
      created.push((res.json as { conversation: { id: string } }).conversation.id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `?limit=3&cursor=${cursor}` : "?limit=3";
      const page = (await user.client.request("GET", `/api/conversations${query}`)).json as Page;
      expect(page.conversations.length).toBeLessThanOrEqual(3);
      seen.push(...page.conversations.map((c) => c.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...created].reverse());

    const search = (await user.client.request("GET", "/api/conversations?q=chat%203")).json as Page;
    expect(search.conversations.map((c) => c.title)).toEqual(["Chat 3 100%_done"]);
    // % and _ are matched literally.
    const literal = (await user.client.request("GET", "/api/conversations?q=0%25_d")).json as Page;
    expect(literal.conversations).toHaveLength(7);
    const none = (await user.client.request("GET", "/api/conversations?q=1x0%25")).json as Page;
    expect(none.conversations).toHaveLength(0);

    const bad = await user.client.request("GET", "/api/conversations?cursor=garbage");
    expect(bad.status).toBe(400);
    expect((bad.json as { error: { fields: object } }).error.fields).toHaveProperty("query.cursor");
    expect((await user.client.request("GET", "/api/conversations?limit=0")).status).toBe(400);
    expect((await user.client.request("GET", "/api/conversations?archived=maybe")).status).toBe(400);
  });

  it("search finds words in messages (prefix, stemmed), names the message with a snippet, and never another user's", async () => {
    const owner = await registerAndSignIn(context.server.url, `search-${kind}`);
    const other = await registerAndSignIn(context.server.url, `search-other-${kind}`);
    const db = context.database.db;
    const dinner = await createConversation(db, { userId: owner.id, title: "Dinner" });
    await createMessage(db, {
      userId: owner.id,
      conversationId: dinner.id,
      role: "user",
      content: "What should I cook?",
    });
    const said = await createMessage(db, {
      userId: owner.id,
      conversationId: dinner.id,
      role: "user",
      content: "Remember that I'm vegetarian and I love roasted aubergines with miso",
    });
    const titled = await createConversation(db, { userId: owner.id, title: "Aubergine recipes" });
    await createConversation(db, { userId: owner.id, title: "Unrelated" });
    const foreign = await createConversation(db, { userId: other.id, title: "Theirs" });
    await createMessage(db, {
      userId: other.id,
      conversationId: foreign.id,
      role: "user",
      content: "aubergines are my favourite vegetarian food",
    });

    type Found = { id: string; title: string; match: { messageId: string; snippet: string } | null };
    const search = async (user: typeof owner, q: string) =>
      (
        (await user.client.request("GET", `/api/conversations?q=${encodeURIComponent(q)}`)).json as {
          conversations: Found[];
        }
      ).conversations;

    const found = await search(owner, "aubergine");
    expect(found.map((c) => c.id).sort()).toEqual([dinner.id, titled.id].sort());
    const inMessage = found.find((c) => c.id === dinner.id);
    expect(inMessage?.match?.messageId).toBe(said.id);
    expect(inMessage?.match?.snippet).toContain("\uE000aubergines\uE001");
    // A title match that no message shares has no message to show.
    expect(found.find((c) => c.id === titled.id)?.match).toBeNull();
    // Words typed so far match as prefixes; several words must all occur.
    expect((await search(owner, "vegetar")).map((c) => c.id)).toEqual([dinner.id]);
    expect((await search(owner, "roasted miso")).map((c) => c.id)).toEqual([dinner.id]);
    expect(await search(owner, "roasted sushi")).toEqual([]);
    // The other user's words never match the owner's search, and the reverse.
    expect((await search(owner, "favourite")).length).toBe(0);
    expect((await search(other, "aubergine")).map((c) => c.id)).toEqual([foreign.id]);
    expect((await search(other, "miso")).length).toBe(0);
  });

  it("archives, renames and deletes; archived ones are listed apart", async () => {
    const user = await registerAndSignIn(context.server.url, `archive-${kind}`);
    const { conversation } = (await user.client.request("POST", "/api/conversations", { json: {} })).json as {
      conversation: { id: string; title: string; memoryEnabled: boolean };
    };
    expect(conversation).toMatchObject({ title: DEFAULT_CONVERSATION_TITLE, memoryEnabled: true });
    const patched = await user.client.request("PATCH", `/api/conversations/${conversation.id}`, {
      json: { title: "Holiday", archived: true, memoryEnabled: false },
    });
    expect(patched.json).toMatchObject({ conversation: { title: "Holiday", archived: true, memoryEnabled: false } });
    const active = (await user.client.request("GET", "/api/conversations")).json as Page;
    expect(active.conversations.map((c) => c.id)).not.toContain(conversation.id);
    const archived = (await user.client.request("GET", "/api/conversations?archived=true")).json as Page;
    expect(archived.conversations.map((c) => c.id)).toEqual([conversation.id]);

    expect((await user.client.request("DELETE", `/api/conversations/${conversation.id}`)).status).toBe(204);
    expect((await user.client.request("GET", `/api/conversations/${conversation.id}`)).status).toBe(404);
    expect((await user.client.request("DELETE", `/api/conversations/${conversation.id}`)).status).toBe(404);
  });

  it("a change of settings is not activity: an old imported chat keeps its date and its place in the list", async () => {
    const user = await registerAndSignIn(context.server.url, `settings-not-activity-${kind}`);
    const db = context.database.db;
    const imported = await createConversation(db, { userId: user.id, title: "From 2023" });
    const saidAt = new Date("2023-11-14T22:13:40.000Z");
    await db
      .update(conversations)
      .set({ importedFrom: "chatgpt", updatedAt: saidAt })
      .where(eq(conversations.id, imported.id));
    const recent = await createConversation(db, { userId: user.id, title: "This week" });
    const order = async () =>
      ((await user.client.request("GET", "/api/conversations")).json as Page).conversations.map((c) => c.id);
    expect(await order()).toEqual([recent.id, imported.id]);

    for (const patch of [{ memoryEnabled: false }, { memoryEnabled: true }, { title: "Renamed" }]) {
      const res = await user.client.request("PATCH", `/api/conversations/${imported.id}`, { json: patch });
      expect(res.status, res.text).toBe(200);
      expect((res.json as { conversation: { updatedAt: string } }).conversation.updatedAt).toBe(saidAt.toISOString());
    }
    expect(await order()).toEqual([recent.id, imported.id]);
    expect((await getConversation(db, { userId: user.id, conversationId: imported.id })).updatedAt).toEqual(saidAt);

    // Archiving and bringing back a chat of Lifeline's own, or changing its mode, does not date it today either.
    const own = await createConversation(db, { userId: user.id, title: "Older own chat" });
    await db
      .update(conversations)
      .set({ updatedAt: new Date("2024-05-01T10:00:00.000Z") })
      .where(eq(conversations.id, own.id));
    for (const patch of [{ archived: true }, { archived: false }, { mode: "agent" }]) {
      expect((await user.client.request("PATCH", `/api/conversations/${own.id}`, { json: patch })).status).toBe(200);
    }
    expect(await order()).toEqual([recent.id, own.id, imported.id]);
  });

  it("titles a conversation after its first exchange, once, and never over a user's title", async () => {
    const ai = createAiRegistry({});
    const user = await registerAndSignIn(context.server.url, `title-${kind}`);
    const userId = user.id;
    const conversation = await createConversation(context.database.db, { userId });
    const say = (role: "user" | "assistant", content: string) =>
      createMessage(context.database.db, { userId, conversationId: conversation.id, role, content });

    await say("user", "Help me plan a weekend trip to Lisbon with my sister");
    // The question alone is not an exchange yet.
    expect(
      await maybeTitleConversation(context.database.db, ai, { userId, conversationId: conversation.id }),
    ).toBeNull();

    await say("assistant", "Happy to help! What do you both enjoy?");
    const title = await maybeTitleConversation(context.database.db, ai, { userId, conversationId: conversation.id });
    expect(title).not.toBeNull();
    expect(title?.split(" ").length).toBeLessThanOrEqual(8);
    expect(title?.length).toBeLessThanOrEqual(100);
    expect((await getConversation(context.database.db, { userId, conversationId: conversation.id })).title).toBe(title);
    // Already titled: nothing changes.
    expect(
      await maybeTitleConversation(context.database.db, ai, { userId, conversationId: conversation.id }),
    ).toBeNull();

    const named = await createConversation(context.database.db, { userId, title: "My own title" });
    for (const text of ["a", "b", "c"]) {
      await createMessage(context.database.db, { userId, conversationId: named.id, role: "user", content: text });
    }
    expect(await maybeTitleConversation(context.database.db, ai, { userId, conversationId: named.id })).toBeNull();
    expect((await getConversation(context.database.db, { userId, conversationId: named.id })).title).toBe(
      "My own title",
    );
  });
});
