/** Results are JSON the server wrote (lib/mcp/tools.ts), so they are rewritten by parsing, never by text search. */
import { and, eq, sql } from "drizzle-orm";
import { DELETED_MEMORY, DELETED_MEMORY_LINE } from "@/core/deleted-memory";
import type { Db } from "@/db/client";
import { mcpCalls } from "@/db/schema";

export interface RedactableCall {
  tool: string;
  arguments: unknown;
  result: string;
  trace: unknown;
  returnedMemoryIds: readonly string[];
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function redactResult(result: string, gone: ReadonlySet<string>): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(result);
  } catch {
    return result; // An error message: it names no memory's text.
  }
  if (!isRecord(parsed) || !Array.isArray(parsed.memories)) return result;
  let changed = false;
  const memories = parsed.memories.map((entry) => {
    if (!isRecord(entry) || typeof entry.id !== "string" || !gone.has(entry.id)) return entry;
    changed = true;
    return {
      ...entry,
      ...("title" in entry ? { title: null } : {}),
      ...("content" in entry ? { content: DELETED_MEMORY } : {}),
      ...("line" in entry ? { line: DELETED_MEMORY_LINE } : {}),
      redacted: true,
    };
  });
  return changed ? JSON.stringify({ ...parsed, memories }) : result;
}

function redactTrace(trace: unknown, gone: ReadonlySet<string>): unknown {
  if (!isRecord(trace)) return trace;
  const out: Record<string, unknown> = { ...trace };
  if (Array.isArray(trace.candidates)) {
    const goneLines = new Set<string>();
    out.candidates = trace.candidates.map((row) => {
      if (!isRecord(row) || typeof row.memoryId !== "string" || !gone.has(row.memoryId)) return row;
      if (typeof row.line === "string") goneLines.add(row.line);
      return {
        ...row,
        title: null,
        content: DELETED_MEMORY,
        line: row.line == null ? null : DELETED_MEMORY_LINE,
        redacted: true,
      };
    });
    if (Array.isArray(trace.memoryLines)) {
      out.memoryLines = trace.memoryLines.map((line) =>
        typeof line === "string" && goneLines.has(line) ? DELETED_MEMORY_LINE : line,
      );
    }
  }
  if (Array.isArray(trace.memories)) {
    out.memories = trace.memories.map((row) =>
      isRecord(row) && typeof row.memoryId === "string" && gone.has(row.memoryId)
        ? { ...row, title: null, content: DELETED_MEMORY, redacted: true }
        : row,
    );
  }
  return out;
}

/** `remember`'s arguments are the memory's own text: they go when the memory goes. */
export function redactMcpCall<C extends RedactableCall>(call: C, goneIds: readonly string[]): C {
  const gone = new Set(goneIds);
  if (gone.size === 0) return call;
  const rememberedGone = call.tool === "remember" && call.returnedMemoryIds.some((id) => gone.has(id));
  return {
    ...call,
    result: redactResult(call.result, gone),
    trace: redactTrace(call.trace, gone),
    arguments:
      rememberedGone && isRecord(call.arguments) && "content" in call.arguments
        ? { ...call.arguments, content: DELETED_MEMORY }
        : call.arguments,
  };
}

export async function redactMcpCalls(db: Db, { userId, memoryIds }: { userId: string; memoryIds: readonly string[] }) {
  const ids = [...new Set(memoryIds)];
  if (ids.length === 0) return;
  const rows = await db
    .select({
      id: mcpCalls.id,
      tool: mcpCalls.tool,
      arguments: mcpCalls.arguments,
      result: mcpCalls.result,
      trace: mcpCalls.trace,
      returnedMemoryIds: mcpCalls.returnedMemoryIds,
    })
    .from(mcpCalls)
    .where(and(eq(mcpCalls.userId, userId), sql`${mcpCalls.memoryIds} ?| ${`{${ids.join(",")}}`}::text[]`))
    .for("update");
  for (const row of rows) {
    const redacted = redactMcpCall(row, ids);
    await db
      .update(mcpCalls)
      .set({ result: redacted.result, trace: redacted.trace, arguments: redacted.arguments })
      .where(and(eq(mcpCalls.id, row.id), eq(mcpCalls.userId, userId)));
  }
}
