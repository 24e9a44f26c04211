/** Conversations over real HTTP: pagination, search, archive, rename, delete, and auto-titles. */
import { describe, expect, it } from "vitest";
import { createConversation, DEFAULT_CONVERSATION_TITLE, getConversation } from "@/db/queries/conversations";
import { createMessage } from "@/db/queries/messages";
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

  it("titles a conversation after its third message, once, and never over a user's title", async () => {
    const ai = createAiRegistry({});
    const user = await registerAndSignIn(context.server.url, `title-${kind}`);
    const userId = user.id;
    const conversation = await createConversation(context.database.db, { userId });
    const say = (role: "user" | "assistant", content: string) =>
      createMessage(context.database.db, { userId, conversationId: conversation.id, role, content });

    await say("user", "Help me plan a weekend trip to Lisbon with my sister");
    await say("assistant", "Happy to help! What do you both enjoy?");
    expect(
      await maybeTitleConversation(context.database.db, ai, { userId, conversationId: conversation.id }),
    ).toBeNull();

    await say("user", "We love food markets and old trams");
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
