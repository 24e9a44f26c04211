import { and, arrayContains, arrayOverlaps, desc, eq, gte, ilike, not, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { demoMailboxes, demoMailMessages } from "@/db/schema";

export type DemoMailRow = typeof demoMailMessages.$inferSelect;
export type NewDemoMail = Omit<typeof demoMailMessages.$inferInsert, "id" | "userId" | "createdAt">;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Concurrent first calls create it once; returns whether it was created now. */
export async function ensureDemoMailbox(
  db: Db,
  input: { userId: string; seed: () => NewDemoMail[] },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const created = await tx
      .insert(demoMailboxes)
      .values({ userId: input.userId })
      .onConflictDoNothing()
      .returning({ userId: demoMailboxes.userId });
    if (created.length === 0) return false;
    const messages = input.seed();
    if (messages.length > 0) {
      await tx.insert(demoMailMessages).values(messages.map((message) => ({ ...message, userId: input.userId })));
    }
    return true;
  });
}

export interface DemoMailFilter {
  from: string[];
  to: string[];
  subject: string[];
  words: string[];
  labels: string[];
  withoutLabels: string[];
  newerThan: Date | null;
}

const contains = (value: string) => `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function searchDemoMail(
  db: Db,
  input: { userId: string; filter: DemoMailFilter; max: number },
): Promise<DemoMailRow[]> {
  const { filter } = input;
  const m = demoMailMessages;
  const conditions: (SQL | undefined)[] = [eq(m.userId, input.userId)];
  for (const from of filter.from) conditions.push(ilike(m.fromAddress, contains(from)));
  for (const to of filter.to) conditions.push(sql`array_to_string(${m.toAddresses}, ',') ILIKE ${contains(to)}`);
  for (const subject of filter.subject) conditions.push(ilike(m.subject, contains(subject)));
  for (const word of filter.words) {
    conditions.push(
      or(ilike(m.fromAddress, contains(word)), ilike(m.subject, contains(word)), ilike(m.body, contains(word))),
    );
  }
  if (filter.labels.length > 0) conditions.push(arrayContains(m.labels, filter.labels));
  if (filter.withoutLabels.length > 0) conditions.push(not(arrayOverlaps(m.labels, filter.withoutLabels)));
  if (filter.newerThan) conditions.push(gte(m.sentAt, filter.newerThan));
  return db
    .select()
    .from(m)
    .where(and(...conditions))
    .orderBy(desc(m.sentAt), m.id)
    .limit(input.max);
}

/** Drafts left out. */
export async function demoCorrespondents(db: Db, input: { userId: string }): Promise<string[]> {
  const m = demoMailMessages;
  const rows = await db
    .select({ from: m.fromAddress, to: m.toAddresses, cc: m.ccAddresses })
    .from(m)
    .where(and(eq(m.userId, input.userId), not(arrayContains(m.labels, ["DRAFT"]))));
  return rows.flatMap((row) => [row.from, ...row.to, ...row.cc]);
}

export async function getDemoMail(db: Db, input: { userId: string; id: string }): Promise<DemoMailRow | null> {
  if (!UUID.test(input.id)) return null;
  const [row] = await db
    .select()
    .from(demoMailMessages)
    .where(and(eq(demoMailMessages.userId, input.userId), eq(demoMailMessages.id, input.id)));
  return row ?? null;
}

export async function getDemoThread(db: Db, input: { userId: string; threadId: string }): Promise<DemoMailRow[]> {
  if (!UUID.test(input.threadId)) return [];
  return db
    .select()
    .from(demoMailMessages)
    .where(and(eq(demoMailMessages.userId, input.userId), eq(demoMailMessages.threadId, input.threadId)))
    .orderBy(demoMailMessages.sentAt, demoMailMessages.id);
}

export async function insertDemoMail(db: Db, input: { userId: string; message: NewDemoMail }): Promise<DemoMailRow> {
  const [row] = await db
    .insert(demoMailMessages)
    .values({ ...input.message, userId: input.userId })
    .returning();
  if (!row) throw new Error("insertDemoMail: no row returned");
  return row;
}

/** drizzle expands a JS array into a parameter list, not an array. */
function textArray(values: readonly string[]): SQL {
  return values.length === 0
    ? sql`ARRAY[]::text[]`
    : sql`ARRAY[${sql.join(
        values.map((v) => sql`${v}`),
        sql`, `,
      )}]::text[]`;
}

export async function updateDemoLabels(
  db: Db,
  input: { userId: string; id: string; add: string[]; remove: string[] },
): Promise<string[] | null> {
  if (!UUID.test(input.id)) return null;
  const [row] = await db
    .update(demoMailMessages)
    .set({
      labels: sql`ARRAY(
        SELECT DISTINCT l FROM unnest(array_cat(${demoMailMessages.labels}, ${textArray(input.add)})) AS l
        WHERE l <> ALL(${textArray(input.remove)}) ORDER BY l)`,
    })
    .where(and(eq(demoMailMessages.userId, input.userId), eq(demoMailMessages.id, input.id)))
    .returning({ labels: demoMailMessages.labels });
  return row?.labels ?? null;
}

export async function listDemoLabels(db: Db, input: { userId: string }): Promise<string[]> {
  const rows = await db
    .selectDistinct({ label: sql<string>`unnest(${demoMailMessages.labels})` })
    .from(demoMailMessages)
    .where(eq(demoMailMessages.userId, input.userId));
  return rows.map((row) => row.label).sort();
}
