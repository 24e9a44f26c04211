/** A memory never read has no row, and shows count 0, never. */
import { getTableColumns, sql } from "drizzle-orm";
import { memories, memoryUsage } from "@/db/schema";

export interface MemoryUsage {
  accessCount: number;
  lastAccessedAt: Date | null;
}

export const NEVER_USED: MemoryUsage = { accessCount: 0, lastAccessedAt: null };

/** One primary-key lookup each, for the rows the statement returns. */
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

export const withUsage = { ...getTableColumns(memories), ...usageColumns };
