/**
 * "Delete means gone" for an extraction's captured model input (memory_extractions.model_input). A consolidation
 * call carries the candidate and its near memories twice: as JSON blocks in its prompt (core/json-block.ts) and as
 * the structured hand-off in `providerOptions.lifeline.input`. Both are rewritten by parsing: a near memory that is
 * gone keeps its id, with `title` null and `content` "[deleted memory]"; the candidate loses its text when its
 * decision's does (the memory it became or merged into is gone), as in redactExtractionDecisions. The extraction
 * call's input is the exchange itself, the conversation's own text, which a memory delete leaves alone.
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { DELETED_MEMORY } from "@/core/deleted-memory";
import { CONSOLIDATION_BLOCKS, rewriteJsonBlock } from "@/core/json-block";
import type { Db } from "@/db/client";
import { memoryExtractions } from "@/db/schema";

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** As redactExtractionDecisions compares a candidate's content. */
const normalised = (text: string) => text.replace(/\s+/g, " ").trim().toLowerCase();

/** Rows fetched and rewritten at a time: a "delete all" touches every consolidation record of the user. */
const BATCH = 50;

/** The structured input of a consolidation call (`providerOptions.lifeline.input`), when it is one. */
function handoffOf(call: unknown): { candidate?: unknown; existing: unknown[] } | null {
  if (!isRecord(call) || !isRecord(call.params) || !isRecord(call.params.providerOptions)) return null;
  const handoff = call.params.providerOptions.lifeline;
  if (!isRecord(handoff) || !isRecord(handoff.input) || !Array.isArray(handoff.input.existing)) return null;
  return { candidate: handoff.input.candidate, existing: handoff.input.existing };
}

/** The memory ids a captured input names (the near memories of its consolidation calls). */
export function modelInputMemoryIds(calls: readonly unknown[]): string[] {
  return [
    ...new Set(
      calls.flatMap((call) =>
        (handoffOf(call)?.existing ?? []).flatMap((near) =>
          isRecord(near) && typeof near.id === "string" ? [near.id] : [],
        ),
      ),
    ),
  ];
}

const redactedMemory = (entry: Record<string, unknown>) => ({ ...entry, title: null, content: DELETED_MEMORY });

function rewriteText(
  text: string,
  redact: { near: (value: unknown) => unknown; candidate: (value: unknown) => unknown },
) {
  const near = rewriteJsonBlock(text, CONSOLIDATION_BLOCKS.near, redact.near);
  const both = near === null ? null : rewriteJsonBlock(near, CONSOLIDATION_BLOCKS.candidate, redact.candidate);
  // A block this module cannot read may hold the text: nothing of the message is kept.
  return both ?? DELETED_MEMORY;
}

function rewriteContent(content: unknown, rewrite: (text: string) => string): unknown {
  if (typeof content === "string") return rewrite(content);
  if (!Array.isArray(content)) return content;
  return content.map((part) =>
    isRecord(part) && part.type === "text" && typeof part.text === "string"
      ? { ...part, text: rewrite(part.text) }
      : part,
  );
}

/**
 * `calls` without the text of the memories in `goneIds`. `decisions` are the row's, as stored before their own
 * redaction: a candidate whose decision produced or merged into a gone memory loses its text here too.
 */
export function redactExtractionInput(
  calls: readonly unknown[],
  decisions: readonly unknown[],
  goneIds: readonly string[],
): unknown[] {
  const gone = new Set(goneIds);
  if (gone.size === 0) return [...calls];
  const goneCandidates = new Set(
    decisions.flatMap((decision) =>
      isRecord(decision) &&
      typeof decision.memoryId === "string" &&
      gone.has(decision.memoryId) &&
      isRecord(decision.candidate) &&
      typeof decision.candidate.content === "string"
        ? [normalised(decision.candidate.content)]
        : [],
    ),
  );
  const candidateGoes = (candidate: unknown) =>
    isRecord(candidate) && typeof candidate.content === "string" && goneCandidates.has(normalised(candidate.content));
  const nearGoes = (near: unknown) => isRecord(near) && typeof near.id === "string" && gone.has(near.id);
  const redact = {
    near: (value: unknown) =>
      Array.isArray(value)
        ? value.map((near) => (nearGoes(near) && isRecord(near) ? redactedMemory(near) : near))
        : value,
    candidate: (value: unknown) => (candidateGoes(value) && isRecord(value) ? redactedMemory(value) : value),
  };

  return calls.map((call) => {
    const handoff = handoffOf(call);
    if (!handoff || !isRecord(call) || !isRecord(call.params)) return call;
    if (!handoff.existing.some(nearGoes) && !candidateGoes(handoff.candidate)) return call;
    const params = call.params;
    const options = params.providerOptions as Record<string, Record<string, unknown>>;
    const lifeline = options.lifeline as Record<string, unknown>;
    const input = lifeline.input as Record<string, unknown>;
    const prompt = Array.isArray(params.prompt)
      ? params.prompt.map((message) =>
          isRecord(message) && message.role !== "system"
            ? { ...message, content: rewriteContent(message.content, (text) => rewriteText(text, redact)) }
            : message,
        )
      : params.prompt;
    return {
      ...call,
      params: {
        ...params,
        prompt,
        providerOptions: {
          ...options,
          lifeline: {
            ...lifeline,
            input: { ...input, candidate: redact.candidate(input.candidate), existing: redact.near(input.existing) },
          },
        },
      },
    };
  });
}

/**
 * Call in the delete's transaction, BEFORE redactExtractionDecisions (it reads the decisions' candidates as they
 * were). Rows are locked FOR UPDATE, then rewritten a batch at a time.
 */
export async function redactExtractionInputs(
  db: Db,
  { userId, memoryIds, extractionId }: { userId: string; memoryIds: readonly string[]; extractionId?: string },
): Promise<void> {
  const ids = [...new Set(memoryIds)];
  if (ids.length === 0) return;
  const gone = sql`${`{${ids.join(",")}}`}::text[]`;
  const arrayOf = (value: ReturnType<typeof sql>) =>
    sql`(CASE WHEN jsonb_typeof(${value}) = 'array' THEN ${value} ELSE '[]'::jsonb END)`;
  const targets = await db
    .select({ id: memoryExtractions.id })
    .from(memoryExtractions)
    .where(
      and(
        eq(memoryExtractions.userId, userId),
        extractionId ? eq(memoryExtractions.id, extractionId) : undefined,
        sql`jsonb_array_length(${memoryExtractions.modelInput}) > 0`,
        sql`(EXISTS (
              SELECT 1 FROM jsonb_array_elements(${arrayOf(sql`${memoryExtractions.modelInput}`)}) c,
                            jsonb_array_elements(${arrayOf(sql`c->'params'->'providerOptions'->'lifeline'->'input'->'existing'`)}) n
              WHERE n->>'id' = ANY(${gone}))
            OR EXISTS (
              SELECT 1 FROM jsonb_array_elements(${arrayOf(sql`${memoryExtractions.decisions}`)}) d
              WHERE d->>'memoryId' = ANY(${gone})))`,
      ),
    )
    .orderBy(asc(memoryExtractions.id))
    .for("update");
  for (let i = 0; i < targets.length; i += BATCH) {
    const rows = await db
      .select({
        id: memoryExtractions.id,
        modelInput: memoryExtractions.modelInput,
        decisions: memoryExtractions.decisions,
      })
      .from(memoryExtractions)
      .where(
        and(
          eq(memoryExtractions.userId, userId),
          inArray(
            memoryExtractions.id,
            targets.slice(i, i + BATCH).map((row) => row.id),
          ),
        ),
      );
    for (const row of rows) {
      const redacted = redactExtractionInput(row.modelInput, row.decisions, ids);
      if (JSON.stringify(redacted) === JSON.stringify(row.modelInput)) continue;
      await db
        .update(memoryExtractions)
        .set({ modelInput: redacted })
        .where(and(eq(memoryExtractions.id, row.id), eq(memoryExtractions.userId, userId)));
    }
  }
}
