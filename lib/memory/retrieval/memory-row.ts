import { memories } from "@/db/schema";

export interface RetrievedMemory {
  id: string;
  title: string | null;
  content: string;
  /** The stored float4 value widened to float8 (see `float4` in score.ts). */
  importance: number;
  createdAt: Date;
  updatedAt: Date;
}

export const retrievedMemoryColumns = {
  id: memories.id,
  title: memories.title,
  content: memories.content,
  importance: memories.importance,
  createdAt: memories.createdAt,
  updatedAt: memories.updatedAt,
};
