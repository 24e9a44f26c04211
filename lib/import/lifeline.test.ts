import { strToU8 } from "fflate";
import { describe, expect, it } from "vitest";
import { importConfig } from "@/core/config";
import { LIFELINE_EXPORT_FORMAT, packRestoreBatches, parseLifelineExport } from "./lifeline";
import { readExport, readImportFile } from "./read-export";
import { ImportFormatError } from "./types";

/** A memory as GET /api/memories/export writes it: every column but the vector, with its history. */
function exported(overrides: Record<string, unknown> = {}) {
  const id = (overrides.id as string | undefined) ?? "11111111-1111-4111-8111-111111111111";
  return {
    id,
    userId: "99999999-9999-4999-8999-999999999999",
    content: "Is allergic to peanuts",
    title: null,
    type: "personal",
    tags: ["health"],
    importance: 0.8999999761581421,
    confidence: 0.9,
    embeddingModel: "offline-wordvec",
    sourceConversationId: "22222222-2222-4222-8222-222222222222",
    sourceUserMessageId: null,
    sourceAssistantMessageId: null,
    sourceAccessTokenId: null,
    examinedMessageIds: [],
    evidence: [{ role: "user", quote: "I'm allergic to peanuts" }],
    provenance: "user_stated",
    status: "active",
    supersededById: null,
    isActionable: false,
    deadline: null,
    pinned: true,
    pastedAt: null,
    restoredAt: null,
    restoredFromId: null,
    restoredContentHash: null,
    createdAt: "2025-03-01T10:00:00.000Z",
    updatedAt: "2025-03-02T10:00:00.000Z",
    editedAt: null,
    redactAt: null,
    accessCount: 3,
    lastAccessedAt: "2025-03-03T10:00:00.000Z",
    history: [
      {
        memoryId: id,
        action: "create",
        actor: "extraction",
        before: null,
        after: { content: "Is allergic to peanuts", status: "active", supersededById: null },
        reason: null,
        createdAt: "2025-03-01T10:00:00.000Z",
      },
    ],
    ...overrides,
  };
}

const file = (memories: unknown[], head: Record<string, unknown> = { format: LIFELINE_EXPORT_FORMAT, version: 1 }) => ({
  ...head,
  exportedAt: "2025-04-01T00:00:00.000Z",
  memories,
});

function refusal(value: unknown): string {
  try {
    parseLifelineExport(value);
  } catch (error) {
    expect(error).toBeInstanceOf(ImportFormatError);
    return (error as Error).message;
  }
  throw new Error("expected the export to be refused");
}

describe("a Lifeline export", () => {
  it("is recognised by its shape and read into what the restore route takes", () => {
    const read = readImportFile(strToU8(JSON.stringify(file([exported()]))));
    expect(read.kind).toBe("lifeline");
    if (read.kind !== "lifeline") return;
    expect(read.parsed.exportedAt).toBe("2025-04-01T00:00:00.000Z");
    expect(read.parsed.memories).toEqual([
      {
        sourceId: "11111111-1111-4111-8111-111111111111",
        content: "Is allergic to peanuts",
        title: null,
        type: "personal",
        tags: ["health"],
        importance: 0.8999999761581421,
        confidence: 0.9,
        provenance: "user_stated",
        status: "active",
        pinned: true,
        isActionable: false,
        deadline: null,
        evidence: [{ role: "user", quote: "I'm allergic to peanuts" }],
        pastedAt: null,
        createdAt: "2025-03-01T10:00:00.000Z",
        updatedAt: "2025-03-02T10:00:00.000Z",
        editedAt: null,
        history: [
          {
            action: "create",
            actor: "extraction",
            before: null,
            after: { content: "Is allergic to peanuts", status: "active", supersededById: null },
            reason: null,
            createdAt: "2025-03-01T10:00:00.000Z",
          },
        ],
      },
    ]);
    // The conversation importer names what the file is instead of misreading it.
    expect(() => readExport(strToU8(JSON.stringify(file([exported()]))))).toThrow(/Lifeline memory export/);
  });

  it("keeps a memory waiting for confirmation waiting; skips superseded and deleted ones, counted by reason", () => {
    const parsed = parseLifelineExport(
      file([
        exported({ id: "a", status: "pending_confirmation", provenance: "assistant_suggested" }),
        exported({ id: "b", content: "Lives in Porto", status: "superseded" }),
        exported({ id: "c", content: "Lives in Faro", status: "deleted" }),
        exported({ id: "d", content: "Lives in Braga", status: "deleted" }),
        exported({ id: "a", content: "listed again" }),
      ]),
    );
    expect(parsed.memories.map((m) => [m.sourceId, m.status, m.provenance])).toEqual([
      ["a", "pending_confirmation", "assistant_suggested"],
    ]);
    expect(parsed.skipped).toEqual([
      { reason: "replaced by a newer memory", count: 1 },
      { reason: "deleted", count: 2 },
      { reason: "listed twice in the export", count: 1 },
    ]);
  });

  it("reads an export from before the format was named (exportedAt and memories) as version 1", () => {
    const old = file([exported()], {});
    expect(old).not.toHaveProperty("version");
    expect(parseLifelineExport(old).memories).toHaveLength(1);
  });

  it("refuses another version, a memory that does not pass the server's schema, and an empty export", () => {
    expect(refusal(file([exported()], { format: LIFELINE_EXPORT_FORMAT, version: 2 }))).toMatch(
      /version 2; this Lifeline reads version 1/,
    );
    expect(refusal(file([exported()], { format: LIFELINE_EXPORT_FORMAT }))).toMatch(/version null/);
    expect(refusal(file([exported({ type: "secret" })]))).toMatch(/Memory 1 of the export cannot be restored \(type:/);
    expect(refusal(file([exported(), exported({ id: "x", content: "nul \u0000" })]))).toMatch(/Memory 2 .*content/);
    expect(refusal(file([exported({ history: [{ action: "create" }] })]))).toMatch(/history\.0/);
    expect(refusal(file([exported({ createdAt: "yesterday" })]))).toMatch(/createdAt/);
    expect(refusal(file([exported({ status: "deleted" })]))).toMatch(/no memory to restore/);
    expect(refusal(file(["not a memory"]))).toMatch(/Memory 1 of the export is not an object/);
    expect(refusal({ format: LIFELINE_EXPORT_FORMAT, version: 1, memories: "all" })).toMatch(/no list of memories/);
    // Not meant as a Lifeline export at all: the conversation readers answer.
    expect(() => readImportFile(strToU8(JSON.stringify({ hello: "world" })))).toThrow(
      /not a ChatGPT, Claude or Lifeline export/,
    );
  });

  it("packs memories into bodies under the JSON limit, never splitting one", () => {
    const memories = Array.from(
      { length: 30 },
      (_, i) =>
        parseLifelineExport(file([exported({ id: `m${i}`, content: `Fact ${i} ${"x".repeat(1500)}` })])).memories[0],
    ).filter((m) => m !== undefined);
    const batches = packRestoreBatches(memories, { maxBytes: 10_000, maxMemories: 4 });
    expect(batches.flat()).toEqual(memories);
    for (const batch of batches) {
      expect(batch.length).toBeLessThanOrEqual(4);
      expect(new TextEncoder().encode(JSON.stringify({ memories: batch })).length).toBeLessThanOrEqual(10_000);
    }
    const whole = packRestoreBatches(memories, {
      maxBytes: importConfig.maxBatchBytes,
      maxMemories: importConfig.maxRestoreMemories,
    });
    expect(whole).toHaveLength(1);
    expect(() => packRestoreBatches(memories, { maxBytes: 1_000, maxMemories: 4 })).toThrow(/too long to send/);
  });
});
