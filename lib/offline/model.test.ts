import { UnsupportedFunctionalityError } from "@ai-sdk/provider";
import { generateText, isStepCount, Output, streamText, tool } from "ai";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { buildTitlePrompt, TITLE_OUTPUT_NAME, titleSchema } from "@/lib/chat/title-prompt";
import { buildExtractionPrompt } from "@/lib/memory/extraction/prompt";
import { EXTRACTION_OUTPUT_NAME, extractionResultSchema } from "@/lib/memory/extraction/schema";
import { renderMemorySection } from "@/lib/memory/retrieval/prompt";
import { OFFLINE_DELAY_ENV, offlineDelayMs, offlineLanguageModel } from "./model";

const model = offlineLanguageModel;

const SYSTEM_WITH_MEMORIES = [
  "You are Lifeline, a helpful assistant.",
  "What you know about the user:",
  "• Drink preference: Prefers green tea",
  "• Sister's name: Sister's name is Maya",
  "• Lives in Berlin",
  "Use these memories when relevant.",
].join("\n");

beforeEach(() => {
  vi.stubEnv(OFFLINE_DELAY_ENV, "0");
});
afterEach(() => {
  vi.unstubAllEnvs();
});

describe("offline model: chat", () => {
  it("streams a reply that uses the relevant memory bullet, word by word", async () => {
    const result = streamText({ model, instructions: SYSTEM_WITH_MEMORIES, prompt: "What tea do I like?" });
    const parts = [];
    for await (const part of result.fullStream) parts.push(part);

    const text = await result.text;
    expect(text).toBe("From what you've told me, you prefer green tea.");
    expect(parts.filter((part) => part.type === "text-delta").length).toBe(text.split(" ").length);
    expect(await result.finishReason).toBe("stop");
    const usage = await result.usage;
    expect(usage.inputTokens).toBeGreaterThan(20);
    expect(usage.outputTokens).toBeGreaterThan(5);
  });

  it("answers from several memories when several relate to the question", async () => {
    const { text } = await generateText({
      model,
      system: SYSTEM_WITH_MEMORIES,
      prompt: "Does my sister live in Berlin too?",
    });
    expect(text).toContain("your sister's name is Maya");
    expect(text).toContain("you live in Berlin");
    expect(text).not.toContain("tea");
  });

  it("lists what it knows when asked what it knows about the user", async () => {
    const { text } = await generateText({
      model,
      instructions: SYSTEM_WITH_MEMORIES,
      prompt: "What do you know about me?",
    });
    expect(text).toBe(
      "From what you've told me, you prefer green tea, your sister's name is Maya, and you live in Berlin.",
    );
  });

  it("answers only the newest user message", async () => {
    const { text } = await generateText({
      model,
      system: SYSTEM_WITH_MEMORIES,
      messages: [
        { role: "user", content: "What tea do I like?" },
        { role: "assistant", content: "From what you've told me, you prefer green tea." },
        { role: "user", content: "And what's my sister called?" },
      ],
    });
    expect(text).toBe("From what you've told me, your sister's name is Maya.");
  });

  it("says in one line what it is and how to connect a real model when nothing it was sent helps", async () => {
    const { text } = await generateText({
      model,
      instructions: "You are Lifeline.",
      prompt: "How tall is Mount Everest?",
    });
    expect(text).toBe(
      "Nothing you've told me helps with that. I'm Lifeline's offline model, so I can only answer from what you've told me; " +
        "for other questions, whoever runs this Lifeline can connect a real model (Settings → For administrators).",
    );
  });

  it("answers from a memory retrieval matched even when it shares no word with the question", async () => {
    const { text } = await generateText({
      model,
      instructions: `You are Lifeline.\n\n${renderMemorySection(
        {
          status: "ok",
          lines: ["• Diet: Is vegetarian", "• Food allergy: Is allergic to peanuts"],
          unmatchedLines: ["• Diet: Is vegetarian"],
        },
        "Sam",
      )}`,
      prompt: "What should I avoid eating?",
    });
    expect(text).toBe("From what you've told me, you are allergic to peanuts.");
  });

  it("does not recite memories that were only at hand (pinned, from this chat) into an unrelated answer", async () => {
    const { text } = await generateText({
      model,
      instructions: `You are Lifeline.\n\n${renderMemorySection(
        { status: "ok", lines: ["• Diet: Is vegetarian"], unmatchedLines: ["• Diet: Is vegetarian"] },
        "Sam",
      )}`,
      prompt: "Are spiders insects?",
    });
    expect(text).not.toContain("vegetarian");
    expect(text).toMatch(/^Nothing you've told me helps with that\. I'm Lifeline's offline model/);
  });

  it("acknowledges facts the user states when it has no memory of them", async () => {
    const { text } = await generateText({ model, prompt: "I prefer green tea and my sister's name is Maya" });
    expect(text).toMatch(/^Thanks for telling me: you prefer green tea and your sister's name is Maya\. /);
    expect(text).toContain("connect a real model");
  });

  it("stops streaming when aborted, like a network provider", async () => {
    vi.stubEnv(OFFLINE_DELAY_ENV, "50");
    const controller = new AbortController();
    const onAbort = vi.fn();
    const result = streamText({
      model,
      system: SYSTEM_WITH_MEMORIES,
      prompt: "What do you know about me?",
      abortSignal: controller.signal,
      onAbort,
    });
    const types: string[] = [];
    let streamed = "";
    for await (const part of result.fullStream) {
      types.push(part.type);
      if (part.type === "text-delta") {
        streamed += part.text;
        controller.abort();
      }
    }
    // Aborted after the first word: at most the word already in flight follows, never the whole reply.
    expect(streamed).toMatch(/^From (what )?$/);
    expect(types.at(-1)).toBe("abort");
    expect(types).not.toContain("finish");
    expect(onAbort).toHaveBeenCalledOnce();
  });

  it("errors its raw stream with an AbortError on abort", async () => {
    vi.stubEnv(OFFLINE_DELAY_ENV, "1000");
    const controller = new AbortController();
    const { stream } = await model.doStream({
      prompt: [{ role: "user", content: [{ type: "text", text: "Hello" }] }],
      abortSignal: controller.signal,
    });
    const reader = stream.getReader();
    const types = [
      (await reader.read()).value?.type,
      (await reader.read()).value?.type,
      (await reader.read()).value?.type,
    ];
    expect(types).toEqual(["stream-start", "response-metadata", "text-start"]);
    const pending = reader.read();
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
  });

  it("cuts the reply at maxOutputTokens and reports finishReason length", async () => {
    const { text, finishReason, usage } = await generateText({
      model,
      system: SYSTEM_WITH_MEMORIES,
      prompt: "What do you know about me?",
      maxOutputTokens: 4,
    });
    expect(finishReason).toBe("length");
    expect(usage.outputTokens).toBe(4);
    expect(text).toBe("From what you've told"); // "you've" is one o200k token
  });
});

describe("offline model: structured output", () => {
  const extractionPrompt = (userMessage: string, assistantMessage = "Got it!") =>
    buildExtractionPrompt({ currentDate: "2026-11-30", previousMessages: [], userMessage, assistantMessage });

  const extract = async (userMessage: string, assistantMessage?: string) => {
    const { system, prompt } = extractionPrompt(userMessage, assistantMessage);
    const { output } = await generateText({
      model,
      system,
      prompt,
      output: Output.object({ schema: extractionResultSchema, name: EXTRACTION_OUTPUT_NAME }),
    });
    return output.memories;
  };

  it("extracts two memories from a compound sentence, each with user evidence", async () => {
    const memories = await extract("I prefer green tea and my sister's name is Maya");
    expect(extractionResultSchema.parse({ memories })).toEqual({ memories });
    expect(memories).toMatchObject([
      {
        type: "preference",
        content: "Prefers green tea",
        isActionable: false,
        deadline: null,
        evidence: [{ role: "user", quote: "I prefer green tea" }],
      },
      {
        type: "personal",
        content: "Sister's name is Maya",
        evidence: [{ role: "user", quote: "my sister's name is Maya" }],
      },
    ]);
    for (const memory of memories) expect(memory.title.length).toBeLessThan(50);
  });

  it("resolves a weekday deadline against the prompt's current date", async () => {
    const [reminder, ...rest] = await extract("remind me to call mom by Friday");
    expect(rest).toEqual([]);
    expect(reminder).toMatchObject({ type: "actionable", isActionable: true, deadline: "2026-12-04" });
  });

  it("returns no memories when nothing matches, and never learns from the assistant", async () => {
    expect(await extract("What's the capital of France?", "Paris. I love Paris and you prefer green tea.")).toEqual([]);
  });

  it("streams structured output too", async () => {
    const { system, prompt } = extractionPrompt("I live in Lisbon");
    const result = streamText({
      model,
      system,
      prompt,
      output: Output.object({ schema: extractionResultSchema, name: EXTRACTION_OUTPUT_NAME }),
    });
    expect((await result.output).memories.map((memory) => memory.content)).toEqual(["Lives in Lisbon"]);
  });

  it("titles a conversation in at most eight words", async () => {
    const { system, prompt } = buildTitlePrompt([
      { role: "user", content: "Hey! Could you help me write a cover letter for a nursing job in Oslo please?" },
      { role: "assistant", content: "Of course! Tell me about your experience." },
    ]);
    const { output } = await generateText({
      model,
      system,
      prompt,
      output: Output.object({ schema: titleSchema, name: TITLE_OUTPUT_NAME }),
    });
    expect(output.title).toBe("Help me write a cover letter for a");
    expect(output.title.split(" ").length).toBeLessThanOrEqual(8);
  });

  it("rejects an unknown or missing output name with a clear error", async () => {
    const call = (name?: string) =>
      generateText({ model, prompt: "hi", output: Output.object({ schema: titleSchema, ...(name ? { name } : {}) }) });
    await expect(call("recipe")).rejects.toSatisfy(
      (error) => UnsupportedFunctionalityError.isInstance(error) && /"recipe"/.test((error as Error).message),
    );
    await expect(call()).rejects.toThrow(/no name/);
  });

  it("rejects an extraction request whose prompt was not built by buildExtractionPrompt", async () => {
    await expect(
      generateText({
        model,
        prompt: "I prefer tea",
        output: Output.object({ schema: extractionResultSchema, name: EXTRACTION_OUTPUT_NAME }),
      }),
    ).rejects.toThrow(/buildExtractionPrompt/);
  });
});

describe("offlineDelayMs", () => {
  it.each([
    [undefined, 15],
    ["0", 0],
    ["40", 40],
    ["-5", 15],
    ["soon", 15],
  ])("reads %j as %i ms", (value, expected) => {
    expect(offlineDelayMs(value === undefined ? {} : { [OFFLINE_DELAY_ENV]: value })).toBe(expected);
  });
});

describe("offline model: memory tools", () => {
  const listed = {
    memories: [
      { id: "m1", title: "Diet", content: "Is vegetarian", type: "preference" },
      { id: "m2", title: "Home", content: "Lives in Berlin", type: "personal" },
    ],
    note: "2 memories",
  };
  const inputs: unknown[] = [];
  const tools = {
    list_memories: tool({
      inputSchema: z.object({ type: z.string().optional(), limit: z.number().optional() }),
      execute: async (input) => {
        inputs.push(input);
        return listed;
      },
    }),
    search_memories: tool({ inputSchema: z.object({ query: z.string() }), execute: async () => listed }),
  };
  beforeEach(() => {
    inputs.length = 0;
  });

  it("calls list_memories for an overview question, then lists what the tool returned", async () => {
    const result = streamText({
      model,
      system: "You are Lifeline.\nYou have no saved memories about the user that relate to this message.",
      prompt: "What do you remember about me?",
      tools,
      stopWhen: isStepCount(3),
    });
    const text = await result.text;
    const steps = await result.steps;
    expect(steps).toHaveLength(2);
    expect(steps[0]?.finishReason).toBe("tool-calls");
    expect(steps[0]?.toolCalls.map((call) => call.toolName)).toEqual(["list_memories"]);
    expect(inputs).toEqual([{}]);
    expect(text).toBe("Here's what I remember about you:\n\n- You are vegetarian.\n- You live in Berlin.");
    // The second call's input counts the tool result it read.
    expect(steps[1]?.usage.inputTokens).toBeGreaterThan((steps[0]?.usage.inputTokens ?? 0) + 20);
  });

  it("asks for the matching type: goals, preferences, deadlines", async () => {
    for (const [question, type] of [
      ["What are my goals?", "goal"],
      ["what are my preferences", "preference"],
      ["What are my deadlines this week?", "actionable"],
    ] as const) {
      await generateText({ model, prompt: question, tools, stopWhen: isStepCount(3) });
      expect(inputs.at(-1)).toEqual({ type });
    }
  });

  it("answers other questions without a tool, and never calls a tool it was not offered", async () => {
    const asked = await generateText({
      model,
      instructions: SYSTEM_WITH_MEMORIES,
      prompt: "What tea do I like?",
      tools,
    });
    expect(asked.toolCalls).toEqual([]);
    const unoffered = await generateText({
      model,
      instructions: SYSTEM_WITH_MEMORIES,
      prompt: "What do you know about me?",
    });
    expect(unoffered.toolCalls).toEqual([]);
    expect(unoffered.text).toMatch(/^From what you've told me, you prefer green tea/);
  });

  it("says plainly when the tool found nothing of that type", async () => {
    const empty = {
      list_memories: tool({
        inputSchema: z.object({ type: z.string().optional() }),
        execute: async () => ({ memories: [], note: "0 memories" }),
      }),
    };
    const { text } = await generateText({
      model,
      prompt: "What are my goals?",
      tools: empty,
      stopWhen: isStepCount(3),
    });
    expect(text).toMatch(/^I don't have any goals saved for you yet\./);
  });
});
