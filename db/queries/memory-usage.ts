/**
 * How often and when last a memory was read into a prompt (`memory_usage`, written by
 * lib/memory/retrieval/access.ts). Read alongside a memory's columns: a memory that was never read has
 * no row, and shows count 0, never.
 */
import { getTableColumns, sql } from "drizzle-orm";
import { memories, memoryUsage } from "@/db/schema";

export interface MemoryUsage {
  accessCount: number;
  lastAccessedAt: Date | null;
}

export const NEVER_USED: MemoryUsage = { accessCount: 0, lastAccessedAt: null };

/**
 * The usage of the `memories` row in scope, as two select (or RETURNING) columns: one primary-key
 * lookup each, for the rows the statement returns.
 */
export const usageColumns = {
  accessCount:
    sql<number>`coalesce((SELECT ${memoryUsage.accessCount} FROM ${memoryUsage} WHERE ${memoryUsage.memoryId} = ${memories.id}), 0)`.mapWith(
      Number,
    ),
  lastAccessedAt:
    sql<Date | null>`(SELECT ${memoryUsage.lastAccessedAt} FROM ${memoryUsage} WHERE ${memoryUsage.memoryId} = ${memories.id})`.mapWith(
      memoryUsage.lastAccessedAt,
    ),
};

/** Every column of `memories` with its usage: a memory's whole state (locked or returned by a change; read by tests). */
export const withUsage = { ...getTableColumns(memories), ...usageColumns };
