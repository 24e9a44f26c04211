import { describe, expect, it } from "vitest";
import { DELETED_MEMORY, DELETED_MEMORY_LINE } from "@/core/deleted-memory";
import { redactMcpCall } from "./mcp-call-redaction";

const GONE = "11111111-1111-4111-8111-111111111111";
const KEPT = "22222222-2222-4222-8222-222222222222";

describe("redactMcpCall", () => {
  it("removes a gone memory's text from the result, keeping its id and the result's other bytes", () => {
    const result = JSON.stringify({
      status: "ok",
      memories: [
        { id: GONE, line: "• Allergic to peanuts", why: "pinned by the user" },
        { id: KEPT, line: "• Lives in Porto", why: "pinned by the user" },
      ],
      note: "2 memory lines",
    });
    const redacted = redactMcpCall(
      {
        tool: "get_memory_context",
        arguments: { message: "food?" },
        result,
        trace: null,
        returnedMemoryIds: [GONE, KEPT],
      },
      [GONE],
    );
    expect(redacted.result).not.toContain("peanuts");
    expect(JSON.parse(redacted.result)).toEqual({
      status: "ok",
      memories: [
        { id: GONE, line: DELETED_MEMORY_LINE, why: "pinned by the user", redacted: true },
        { id: KEPT, line: "• Lives in Porto", why: "pinned by the user" },
      ],
      note: "2 memory lines",
    });
    expect(redacted.arguments).toEqual({ message: "food?" });
  });

  it("redacts an assembly trace's candidates and lines and a tool trace's rows", () => {
    const trace = {
      candidates: [
        { memoryId: GONE, title: "Food", content: "Allergic to peanuts", line: "• Allergic to peanuts" },
        { memoryId: GONE, title: "Food", content: "Allergic to peanuts", line: null },
        { memoryId: KEPT, title: null, content: "Lives in Porto", line: "• Lives in Porto" },
      ],
      memoryLines: ["• Allergic to peanuts", "• Lives in Porto"],
    };
    const call = { tool: "get_memory_context", arguments: {}, result: "{}", trace, returnedMemoryIds: [] };
    const redacted = redactMcpCall(call, [GONE]).trace as typeof trace;
    expect(redacted.candidates.map((row) => [row.content, row.line, row.title])).toEqual([
      [DELETED_MEMORY, DELETED_MEMORY_LINE, null],
      [DELETED_MEMORY, null, null],
      ["Lives in Porto", "• Lives in Porto", null],
    ]);
    expect(redacted.memoryLines).toEqual([DELETED_MEMORY_LINE, "• Lives in Porto"]);

    const tool = { memories: [{ memoryId: GONE, title: "Food", content: "Allergic to peanuts" }] };
    const search = redactMcpCall({ ...call, tool: "search_memories", trace: tool }, [GONE]).trace as typeof tool;
    expect(search.memories[0]).toEqual({ memoryId: GONE, title: null, content: DELETED_MEMORY, redacted: true });
  });

  it("removes remember's arguments when the memory it stored is gone, and leaves an error text alone", () => {
    const remembered = redactMcpCall(
      {
        tool: "remember",
        arguments: { content: "Allergic to peanuts" },
        result: JSON.stringify({
          action: "add",
          memories: [{ id: GONE, title: "Allergic", content: "Allergic to peanuts" }],
        }),
        trace: null,
        returnedMemoryIds: [GONE],
      },
      [GONE],
    );
    expect(remembered.arguments).toEqual({ content: DELETED_MEMORY });
    expect(JSON.stringify(remembered)).not.toContain("peanuts");

    const failed = {
      tool: "forget",
      arguments: { memory_id: GONE },
      result: "Memory not found",
      trace: null,
      returnedMemoryIds: [],
    };
    expect(redactMcpCall(failed, [GONE])).toEqual(failed);
  });
});
