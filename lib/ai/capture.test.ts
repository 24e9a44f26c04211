import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { generateText, simulateReadableStream, streamText } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { type CapturedCall, withCapture } from "./capture";

/** A promise settled from outside: lets a test hold the debug write open. */
function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

const USAGE = {
  inputTokens: { total: 3, noCache: 3, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 2, text: 2, reasoning: undefined },
};

const PARTS: LanguageModelV4StreamPart[] = [
  { type: "stream-start", warnings: [] },
  { type: "text-start", id: "t" },
  { type: "text-delta", id: "t", delta: "Hello" },
  { type: "text-delta", id: "t", delta: " there" },
  { type: "text-end", id: "t" },
  { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage: USAGE },
];

describe("withCapture", () => {
  it("captures what the model receives, calls it while the record is written, and holds the answer until then", async () => {
    const events: string[] = [];
    const write = deferred();
    const model = new MockLanguageModelV4({
      doStream: async () => {
        events.push("model called");
        return { stream: simulateReadableStream({ chunks: PARTS }) };
      },
    });
    const calls: CapturedCall[] = [];
    const captured = withCapture(model, calls, async (call) => {
      events.push(`record started (${call.type})`);
      await write.promise;
      events.push("record written");
    });

    const result = streamText({ model: captured, prompt: "Hi", temperature: 0.3 });
    const text = (async () => {
      let seen = "";
      for await (const delta of result.textStream) {
        if (seen === "") events.push("first text");
        seen += delta;
      }
      return seen;
    })();
    // The model call has started although the record is not written yet, and no text has passed.
    await expect.poll(() => events).toContain("model called");
    await new Promise((r) => setTimeout(r, 20));
    expect(events).toEqual(["record started (stream)", "model called"]);

    write.resolve();
    expect(await text).toBe("Hello there");
    expect(events).toEqual(["record started (stream)", "model called", "record written", "first text"]);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.params).toMatchObject({
      temperature: 0.3,
      prompt: [{ role: "user", content: [{ type: "text", text: "Hi" }] }],
    });
  });

  it("a model that fails before streaming still waits for its record; generate waits for it too", async () => {
    const write = deferred();
    let written = false;
    const onCall = async () => {
      await write.promise;
      written = true;
    };
    const failing = withCapture(
      new MockLanguageModelV4({
        doStream: async () => {
          throw new Error("refused");
        },
      }),
      [],
      onCall,
    );
    const outcome = streamText({ model: failing, prompt: "Hi", maxRetries: 0, onError: () => {} }).consumeStream();
    setTimeout(() => write.resolve(), 20);
    await outcome;
    expect(written).toBe(true);

    const again = deferred();
    let generated = false;
    const calls: CapturedCall[] = [];
    const model = withCapture(
      new MockLanguageModelV4({
        doGenerate: async () => ({
          content: [{ type: "text", text: "Done" }],
          finishReason: { unified: "stop", raw: "stop" },
          usage: USAGE,
          warnings: [],
        }),
      }),
      calls,
      async () => {
        await again.promise;
        generated = true;
      },
    );
    const answer = generateText({ model, prompt: "Hi" });
    await new Promise((r) => setTimeout(r, 20));
    expect(generated).toBe(false);
    again.resolve();
    expect((await answer).text).toBe("Done");
    expect(generated).toBe(true);
    expect(calls.map((call) => call.type)).toEqual(["generate"]);
  });
});
