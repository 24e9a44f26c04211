import { memories } from "@/db/schema";

/** The fields of a memory that the assembly stages after retrieval read. */
export interface RetrievedMemory {
  id: string;
  title: string | null;
  content: string;
  /** The stored float4 value widened to float8 (see `float4` in score.ts). */
  importance: number;
  createdAt: Date;
  updatedAt: Date;
}

/** The columns of a RetrievedMemory, for the branches that select memories with drizzle. */
export const retrievedMemoryColumns = {
  id: memories.id,
  title: memories.title,
  content: memories.content,
  importance: memories.importance,
  createdAt: memories.createdAt,
  updatedAt: memories.updatedAt,
};
