/**
 * The rewrite of a captured consolidation call, on a call really captured from the offline model: a gone near
 * memory and a gone candidate lose their text in the prompt and the hand-off alike, everything else stays byte
 * for byte, and a block that cannot be read is not kept.
 */
import { describe, expect, it } from "vitest";
import { DELETED_MEMORY } from "@/core/deleted-memory";
import type { NearMemory } from "@/db/queries/memories";
import { type CapturedCall, withCapture } from "@/lib/ai/capture";
import { askModel } from "@/lib/memory/extraction/consolidate";
import type { ExtractedMemory } from "@/lib/memory/extraction/extract";
import { offlineLanguageModel } from "@/lib/offline/model";
import { modelInputMemoryIds, redactExtractionInput } from "./extraction-input-redaction";

const GONE = "11111111-1111-4111-8111-111111111111";
const KEPT = "22222222-2222-4222-8222-222222222222";
const PRODUCED = "33333333-3333-4333-8333-333333333333";
const OTHER = "44444444-4444-4444-8444-444444444444";

const candidate: ExtractedMemory = {
  title: "Board game",
  content: "Favorite board game is Zorblaxia <b>",
  type: "preference",
  importance: 0.5,
  tags: [],
  confidence: 1,
  isActionable: false,
  deadline: null,
  evidence: [{ role: "user", quote: "Zorblaxia" }],
  provenance: "user_stated",
  status: "active",
};
const near = (id: string, content: string): NearMemory => ({
  id,
  title: "Games",
  content,
  type: "preference",
  status: "active",
  provenance: "user_stated",
  similarity: 0.81234,
  foundBy: "both",
});

async function capturedCall(): Promise<CapturedCall[]> {
  const calls: CapturedCall[] = [];
  await askModel(withCapture(offlineLanguageModel, calls), candidate, [
    near(GONE, "Plays Zorblaxia on Fridays"),
    near(KEPT, "Owns a Quillnestor kite"),
  ]);
  return JSON.parse(JSON.stringify(calls)) as CapturedCall[];
}

const userText = (call: unknown) => {
  const prompt = (call as CapturedCall).params.prompt as { role: string; content: { text: string }[] }[];
  return prompt.find((m) => m.role === "user")?.content[0]?.text ?? "";
};

describe("redactExtractionInput", () => {
  it("names the near memories of its consolidation calls", async () => {
    expect(modelInputMemoryIds(await capturedCall()).sort()).toEqual([GONE, KEPT]);
  });

  it("a gone near memory keeps its id and loses its text, in the prompt and the hand-off; the rest stays byte for byte", async () => {
    const calls = await capturedCall();
    const [redacted] = redactExtractionInput(calls, [], [GONE]);
    const text = userText(redacted);
    expect(JSON.stringify(redacted)).not.toContain("Fridays");
    expect(text).toContain(GONE);
    expect(text).toContain("Owns a Quillnestor kite");
    expect(text).toContain("Zorblaxia \\u003cb>");
    const before = userText(calls[0]);
    const entry = (content: string, title: string) =>
      `"id": "${GONE}",\n    "title": ${title},\n    "content": ${JSON.stringify(content)},`;
    expect(before).toContain(entry("Plays Zorblaxia on Fridays", '"Games"'));
    expect(text).toBe(before.replace(entry("Plays Zorblaxia on Fridays", '"Games"'), entry(DELETED_MEMORY, "null")));
    const handoff = (call: unknown) =>
      (call as { params: { providerOptions: { lifeline: { input: unknown } } } }).params.providerOptions.lifeline.input;
    expect(handoff(redacted)).toMatchObject({
      candidate: { content: candidate.content },
      existing: [
        { id: GONE, title: null, content: DELETED_MEMORY },
        { id: KEPT, content: "Owns a Quillnestor kite" },
      ],
    });
    // The system prompt and settings are untouched; a second pass changes nothing.
    expect({ ...(redacted as CapturedCall).params, prompt: null, providerOptions: null }).toEqual({
      ...(calls[0] as CapturedCall).params,
      prompt: null,
      providerOptions: null,
    });
    expect(redactExtractionInput([redacted], [], [GONE])).toEqual([redacted]);
  });

  it("the candidate loses its text when the memory its decision produced is gone", async () => {
    const calls = await capturedCall();
    const decisions = [{ candidate: { content: candidate.content }, memoryId: PRODUCED, targetId: null }];
    const [redacted] = redactExtractionInput(calls, decisions, [PRODUCED]);
    expect(JSON.stringify(redacted)).not.toContain("Favorite board game");
    expect(JSON.stringify(redacted)).toContain("Plays Zorblaxia on Fridays");
    expect(redactExtractionInput(calls, decisions, [OTHER])).toEqual(calls);
  });

  it("a prompt whose block cannot be read is not kept", async () => {
    const calls = await capturedCall();
    const broken = JSON.parse(
      JSON.stringify(calls).replace("<existing_memories>\\n[", "<existing_memories>\\n[["),
    ) as unknown[];
    const [redacted] = redactExtractionInput(broken, [], [GONE]);
    expect(userText(redacted)).toBe(DELETED_MEMORY);
  });
});
