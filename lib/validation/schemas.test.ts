/**
 * Every schema a route validates requests with: every string in it — body, query, path — refuses
 * NUL and unpaired surrogates, with an issue that names the field (or the field it belongs to:
 * message parts are judged as the joined message). Postgres cannot store either; unchecked, they
 * are a 500 at the database instead of a 400. A schema exported from lib/validation without an
 * entry here fails the first test.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import * as account from "./account";
import * as chat from "./chat";
import * as common from "./common";
import * as memories from "./memories";
import * as notes from "./notes";
import * as strings from "./strings";

const ID = "00000000-0000-4000-8000-000000000000";

/**
 * A valid value of each exported schema. `nulAllowed`: leaves where NUL is accepted on purpose.
 * `oneField`: the schema is one field whose parts are judged together (an issue at its root names it).
 */
const samples: Record<string, { schema: z.ZodType; valid: unknown; nulAllowed?: string[]; oneField?: boolean }> = {
  "account.name": { schema: account.name, valid: "Ada" },
  "account.registerBody": {
    schema: account.registerBody,
    valid: { email: "ada@example.com", password: "correct-horse", name: "Ada" },
  },
  "account.signInCredentials": {
    schema: account.signInCredentials,
    valid: { email: "ada@example.com", password: "correct-horse" },
    // An existing password is only ever hashed; refusing NUL could lock out an older account.
    nulAllowed: ["password"],
  },
  "account.accountPatchBody": {
    schema: account.accountPatchBody,
    valid: { name: "Ada", email: "ada@example.com", memoryEnabledDefault: true },
  },
  "account.passwordChangeBody": {
    schema: account.passwordChangeBody,
    valid: { currentPassword: "old-password", newPassword: "new-password" },
    nulAllowed: ["currentPassword"],
  },
  "chat.chatMessage": { schema: chat.chatMessage, valid: { text: "Hello" }, oneField: true },
  "chat.chatModeSchema": { schema: chat.chatModeSchema, valid: "coaching" },
  "chat.modelIdSchema": { schema: chat.modelIdSchema, valid: "gpt-4o-mini" },
  "chat.temperatureSchema": { schema: chat.temperatureSchema, valid: 0.7 },
  "chat.chatBody": {
    schema: chat.chatBody,
    valid: {
      conversationId: ID,
      message: { id: "m1", role: "user", parts: [{ type: "text", text: "Hello", state: "done" }] },
      model: "gpt-4o-mini",
      mode: "coaching",
      temperature: 0.7,
    },
  },
  "chat.conversationCreateBody": {
    schema: chat.conversationCreateBody,
    valid: { title: "Trip", mode: "coaching", model: "gpt-4o-mini", memoryEnabled: true },
  },
  "chat.conversationPatchBody": {
    schema: chat.conversationPatchBody,
    valid: { title: "Trip", archived: false, mode: "coaching", model: "gpt-4o-mini", memoryEnabled: true },
  },
  "chat.conversationListQuery": {
    schema: chat.conversationListQuery,
    valid: { archived: "false", q: "trip", limit: "10", cursor: "abc" },
  },
  "common.uuid": { schema: common.uuid, valid: ID },
  "common.idParams": { schema: common.idParams, valid: { id: ID } },
  "common.noQuery": { schema: common.noQuery, valid: {} },
  "memories.memoryPatchBody": {
    schema: memories.memoryPatchBody,
    valid: { content: "Likes tea", title: "Tea", type: "preference", importance: 0.5, tags: ["tea"], pinned: true },
  },
  "memories.memoryCreateBody": {
    schema: memories.memoryCreateBody,
    valid: { content: "Likes tea", title: "Tea", type: "preference", importance: 0.5, tags: ["tea"] },
  },
  "memories.memoryListQuery": {
    schema: memories.memoryListQuery,
    valid: {
      q: "tea",
      match: "text",
      type: "preference",
      tag: "tea",
      provenance: "user_stated",
      status: "active",
      pinned: "true",
      sort: "recent",
      page: "1",
      pageSize: "20",
    },
  },
  "memories.memoryExportQuery": { schema: memories.memoryExportQuery, valid: { format: "text" } },
  "memories.memoryDeleteQuery": { schema: memories.memoryDeleteQuery, valid: { now: "true" } },
  "memories.previewBody": { schema: memories.previewBody, valid: { message: "What tea?", conversationId: ID } },
  "memories.deleteAllBody": { schema: memories.deleteAllBody, valid: { confirm: "delete all" } },
  "notes.noteCreateBody": { schema: notes.noteCreateBody, valid: { content: "A note" } },
  "strings.email": { schema: strings.email, valid: "ada@example.com" },
  "strings.newPassword": { schema: strings.newPassword, valid: "correct-horse" },
  "strings.existingPassword": { schema: strings.existingPassword, valid: "correct-horse", nulAllowed: [""] },
};

const modules = { account, chat, common, memories, notes, strings };
const exported = Object.entries(modules).flatMap(([module, exports]) =>
  Object.entries(exports)
    .filter(([, value]) => value instanceof z.ZodType)
    .map(([name]) => `${module}.${name}`),
);

function stringLeaves(value: unknown, path: (string | number)[] = []): { path: (string | number)[]; value: string }[] {
  if (typeof value === "string") return [{ path, value }];
  if (Array.isArray(value)) return value.flatMap((item, i) => stringLeaves(item, [...path, i]));
  if (value && typeof value === "object")
    return Object.entries(value).flatMap(([key, item]) => stringLeaves(item, [...path, key]));
  return [];
}

function replaceAt(value: unknown, path: (string | number)[], replacement: string): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string | number, unknown>;
  copy[head] = replaceAt(copy[head], rest, replacement);
  return copy;
}

const isPrefix = (prefix: PropertyKey[], path: PropertyKey[]) => prefix.every((part, i) => path[i] === part);

it("every schema exported from lib/validation has a sample here", () => {
  expect(exported.filter((name) => !(name in samples))).toEqual([]);
  expect(Object.keys(samples).filter((name) => !exported.includes(name))).toEqual([]);
});

describe.each(Object.entries(samples))("%s", (_name, { schema, valid, nulAllowed = [], oneField = false }) => {
  it("accepts its sample", () => {
    expect(schema.safeParse(valid).error?.issues).toBeUndefined();
  });

  const leaves = stringLeaves(valid);
  const cases = leaves.flatMap((leaf) => [
    { leaf, label: "NUL", bad: `${leaf.value}\u0000x`, skip: nulAllowed.includes(leaf.path.join(".")) },
    { leaf, label: "an unpaired surrogate", bad: `${leaf.value}\uD800`, skip: false },
    { leaf, label: "a lone low surrogate", bad: `\uDC00${leaf.value}`, skip: false },
  ]);
  it.each(cases.filter((c) => !c.skip))("refuses $label in '$leaf.path', naming the field", ({ leaf, bad }) => {
    const result = schema.safeParse(replaceAt(valid, leaf.path, bad));
    expect(result.success).toBe(false);
    const paths = result.error?.issues.map((issue) => issue.path) ?? [];
    // The issue is on the leaf itself or on the field that owns it (a message's parts → message).
    expect(
      paths.some((path) => isPrefix(path, leaf.path) && (path.length > 0 || leaf.path.length === 0 || oneField)),
    ).toBe(true);
  });
});
