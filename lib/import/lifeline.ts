/**
 * Reads a file saved from `GET /api/memories/export` (a Lifeline export) into the batches
 * POST /api/imports/restore takes, in the browser or a script. Recognised by its shape: a JSON
 * object whose `format` is "lifeline-memories", or, from before the export named its format, one
 * with `exportedAt` and a `memories` list. Each memory is checked with the server's own schema
 * (lib/validation/imports.ts): a file with one that does not pass is refused, naming it.
 */
import type { z } from "zod";
import { type RestoredMemoryInput, restoredMemory } from "@/lib/validation/imports";
import { ImportFormatError, isRecord, type SkipCount, SkipTally } from "./types";

export const LIFELINE_EXPORT_FORMAT = "lifeline-memories";
/** The export's shape this code reads; a file of another version is refused. */
export const LIFELINE_EXPORT_VERSION = 1;

export interface ParsedLifelineExport {
  exportedAt: string | null;
  /** Active and waiting-for-confirmation memories, in the export's order. */
  memories: RestoredMemoryInput[];
  skipped: SkipCount[];
}

const SKIPPED_STATUS: Record<string, string> = {
  superseded: "replaced by a newer memory",
  deleted: "deleted",
};

/** Whether the parsed JSON is meant as a Lifeline export (then it is read, or refused, as one). */
export function isLifelineExport(value: unknown): value is Record<string, unknown> {
  if (!isRecord(value)) return false;
  return value.format === LIFELINE_EXPORT_FORMAT || ("exportedAt" in value && "memories" in value);
}

const pick = (memory: Record<string, unknown>) => ({
  sourceId: memory.id,
  content: memory.content,
  title: memory.title,
  type: memory.type,
  tags: memory.tags,
  importance: memory.importance,
  confidence: memory.confidence,
  provenance: memory.provenance,
  status: memory.status,
  pinned: memory.pinned,
  isActionable: memory.isActionable,
  deadline: memory.deadline,
  evidence: memory.evidence,
  pastedAt: memory.pastedAt,
  createdAt: memory.createdAt,
  updatedAt: memory.updatedAt,
  editedAt: memory.editedAt,
  history: Array.isArray(memory.history)
    ? memory.history.map((event: unknown) =>
        isRecord(event)
          ? {
              action: event.action,
              actor: event.actor,
              before: event.before,
              after: event.after,
              reason: event.reason,
              createdAt: event.createdAt,
            }
          : event,
      )
    : memory.history,
});

function describeIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.map(String).join(".");
  return path ? `${path}: ${issue.message}` : issue.message;
}

export function parseLifelineExport(value: unknown): ParsedLifelineExport {
  if (!isLifelineExport(value)) throw new ImportFormatError("The file is not a Lifeline export.");
  const version = value.version ?? (value.format === undefined ? LIFELINE_EXPORT_VERSION : undefined);
  if (version !== LIFELINE_EXPORT_VERSION) {
    throw new ImportFormatError(
      `This Lifeline export is version ${JSON.stringify(value.version ?? null)}; this Lifeline reads version ${LIFELINE_EXPORT_VERSION}.`,
    );
  }
  if (!Array.isArray(value.memories)) throw new ImportFormatError("The Lifeline export has no list of memories.");
  const skipped = new SkipTally();
  const memories: RestoredMemoryInput[] = [];
  const seen = new Set<unknown>();
  for (const [index, memory] of value.memories.entries()) {
    if (!isRecord(memory)) throw new ImportFormatError(`Memory ${index + 1} of the export is not an object.`);
    const skippedBecause = typeof memory.status === "string" ? SKIPPED_STATUS[memory.status] : undefined;
    if (skippedBecause) {
      skipped.add(skippedBecause);
      continue;
    }
    if (seen.has(memory.id)) {
      skipped.add("listed twice in the export");
      continue;
    }
    seen.add(memory.id);
    const result = restoredMemory.safeParse(pick(memory));
    if (!result.success) {
      const first = result.error.issues[0];
      throw new ImportFormatError(
        `Memory ${index + 1} of the export cannot be restored (${first ? describeIssue(first) : "invalid"}).`,
      );
    }
    memories.push(result.data);
  }
  if (memories.length === 0) throw new ImportFormatError("The Lifeline export has no memory to restore.");
  return {
    exportedAt: typeof value.exportedAt === "string" ? value.exportedAt : null,
    memories,
    skipped: skipped.list(),
  };
}

const encoder = new TextEncoder();
const size = (value: unknown) => encoder.encode(JSON.stringify(value)).length;
/** `{"memories":[` … `]}`. */
const ENVELOPE_BYTES = 16;

/** Bodies for POST /api/imports/restore: each at most `maxBytes` of JSON and `maxMemories` memories; a memory is never split. */
export function packRestoreBatches(
  memories: RestoredMemoryInput[],
  { maxBytes, maxMemories }: { maxBytes: number; maxMemories: number },
): RestoredMemoryInput[][] {
  const batches: RestoredMemoryInput[][] = [];
  let batch: RestoredMemoryInput[] = [];
  let bytes = ENVELOPE_BYTES;
  for (const memory of memories) {
    const memoryBytes = size(memory) + 1;
    if (memoryBytes + ENVELOPE_BYTES > maxBytes) {
      throw new ImportFormatError(
        `The memory "${memory.content.slice(0, 60)}" has a history too long to send (${Math.ceil(memoryBytes / 1024)} KB).`,
      );
    }
    if (batch.length > 0 && (bytes + memoryBytes > maxBytes || batch.length >= maxMemories)) {
      batches.push(batch);
      batch = [];
      bytes = ENVELOPE_BYTES;
    }
    batch.push(memory);
    bytes += memoryBytes;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}
