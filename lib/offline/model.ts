/**
 * Lifeline's offline language model: a deterministic LanguageModelV4 used whenever no API key is
 * configured. Not a test double (it runs in production in the embedded default), but it only knows
 * what the prompt gives it. doStream paces word-by-word deltas by LIFELINE_OFFLINE_DELAY_MS and
 * errors with the signal's reason on abort, as an aborted fetch body would.
 */
import {
  type LanguageModelV4,
  type LanguageModelV4CallOptions,
  type LanguageModelV4FinishReason,
  type LanguageModelV4GenerateResult,
  type LanguageModelV4Prompt,
  type LanguageModelV4StreamPart,
  type LanguageModelV4StreamResult,
  type LanguageModelV4Usage,
  type SharedV4Warning,
  UnsupportedFunctionalityError,
} from "@ai-sdk/provider";
import { createIdGenerator } from "@ai-sdk/provider-utils";
import { env as processEnv, type RawEnv } from "@/core/env";
import type { ParsedConsolidationPrompt } from "@/lib/memory/extraction/consolidation-prompt";
import { CONSOLIDATION_OUTPUT_NAME } from "@/lib/memory/extraction/consolidation-schema";
import type { ConversationMessage, MemoryTitleInput, ParsedExtractionPrompt } from "@/lib/memory/extraction/prompt";
import { EXTRACTION_OUTPUT_NAME, MEMORY_TITLE_OUTPUT_NAME } from "@/lib/memory/extraction/schema";
import { countTokens, truncateToTokens } from "@/lib/memory/tokens";
import { composeOfflineReply, composeToolAnswer, decideMemoryToolCall, type ToolResultInput } from "./chat";
import { consolidateOffline } from "./consolidation";
import { extractMemoriesOffline, titleConversationOffline } from "./extractor";
import { titleMemoryOffline } from "./memory-title";
import {
  parseConsolidationPrompt,
  parseExtractionPrompt,
  parseMemoryTitlePrompt,
  parseTitlePrompt,
  readHandoff,
  TITLE_OUTPUT_NAME,
} from "./prompt-readers";

export const OFFLINE_CHAT_MODEL_ID = "lifeline-offline-1";
export const OFFLINE_DELAY_ENV = "LIFELINE_OFFLINE_DELAY_MS";
const DEFAULT_DELAY_MS = 15;
/** JSON has few spaces, so structured output is streamed in fixed-size slices instead of words. */
const JSON_CHUNK_CHARS = 24;

const generateResponseId = createIdGenerator({ prefix: "offline", size: 24 });
const generateToolCallId = createIdGenerator({ prefix: "call", size: 16 });

interface Completion {
  text: string;
  toolCall?: { toolCallId: string; toolName: string; input: string };
  chunks: string[];
  finishReason: LanguageModelV4FinishReason;
  usage: LanguageModelV4Usage;
  warnings: SharedV4Warning[];
}

export function offlineDelayMs(env: RawEnv = processEnv()): number {
  const raw = env[OFFLINE_DELAY_ENV]?.trim();
  const value = raw ? Number(raw) : Number.NaN;
  return Number.isFinite(value) && value >= 0 ? value : DEFAULT_DELAY_MS;
}

function textOf(message: LanguageModelV4Prompt[number]): string {
  if (typeof message.content === "string") return message.content;
  return message.content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

function promptText(message: LanguageModelV4Prompt[number]): string {
  if (typeof message.content === "string") return message.content;
  return message.content
    .map((part) => {
      if (part.type === "text") return part.text;
      if (part.type === "tool-call") return `${part.toolName} ${JSON.stringify(part.input)}`;
      if (part.type === "tool-result") return JSON.stringify(part.output);
      return "";
    })
    .join("");
}

function systemText(prompt: LanguageModelV4Prompt): string {
  return prompt
    .filter((message) => message.role === "system")
    .map(textOf)
    .join("\n");
}

function userTexts(prompt: LanguageModelV4Prompt): string[] {
  return prompt.filter((message) => message.role === "user").map(textOf);
}

/** Uses the pipeline's handoff input as is; without one, reads the prompt back (it must have the builder's shape). */
function structuredOutput(options: LanguageModelV4CallOptions, name: string | undefined): string {
  const userText = userTexts(options.prompt).join("\n\n");
  const handoff = name === undefined ? undefined : readHandoff(options.providerOptions, name);
  switch (name) {
    case EXTRACTION_OUTPUT_NAME: {
      const parsed = (handoff as ParsedExtractionPrompt | undefined) ?? parseExtractionPrompt(userText);
      if (!parsed) {
        throw new Error(
          `Offline model: a "${EXTRACTION_OUTPUT_NAME}" request needs a prompt made by buildExtractionPrompt (Current date, <user_message>, <assistant_message>).`,
        );
      }
      return JSON.stringify(extractMemoriesOffline(parsed));
    }
    case TITLE_OUTPUT_NAME: {
      const messages = (handoff as ConversationMessage[] | undefined) ?? parseTitlePrompt(userText);
      if (!messages) {
        throw new Error(
          `Offline model: a "${TITLE_OUTPUT_NAME}" request needs a prompt made by buildTitlePrompt (<conversation>).`,
        );
      }
      return JSON.stringify(titleConversationOffline(messages));
    }
    case MEMORY_TITLE_OUTPUT_NAME: {
      const parsed = (handoff as MemoryTitleInput | undefined) ?? parseMemoryTitlePrompt(userText);
      if (!parsed) {
        throw new Error(
          `Offline model: a "${MEMORY_TITLE_OUTPUT_NAME}" request needs a prompt made by buildMemoryTitlePrompt (<memory>).`,
        );
      }
      return JSON.stringify(titleMemoryOffline(parsed));
    }
    case CONSOLIDATION_OUTPUT_NAME: {
      const parsed = (handoff as ParsedConsolidationPrompt | undefined) ?? parseConsolidationPrompt(userText);
      if (!parsed) {
        throw new Error(
          `Offline model: a "${CONSOLIDATION_OUTPUT_NAME}" request needs a prompt made by buildConsolidationPrompt (<new_memory>, <existing_memories>).`,
        );
      }
      return JSON.stringify(consolidateOffline(parsed));
    }
    default:
      throw new UnsupportedFunctionalityError({
        functionality: `structured output "${name ?? "(unnamed)"}"`,
        message: `The offline model only produces the structured outputs "${EXTRACTION_OUTPUT_NAME}", "${TITLE_OUTPUT_NAME}", "${MEMORY_TITLE_OUTPUT_NAME}" and "${CONSOLIDATION_OUTPUT_NAME}" (got ${name === undefined ? "no name" : `"${name}"`}). Pass the name via Output.object({ schema, name }).`,
      });
  }
}

/** Words with their trailing whitespace, so the chunks concatenate back to the text. */
function wordChunks(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? [];
}

function fixedChunks(text: string, size: number): string[] {
  return Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size));
}

function earlierAnswers(prompt: LanguageModelV4Prompt): string[] {
  const lastUser = prompt.findLastIndex((message) => message.role === "user");
  return prompt
    .slice(0, Math.max(0, lastUser))
    .filter((message) => message.role === "assistant")
    .map(textOf);
}

function toolResultsOf(prompt: LanguageModelV4Prompt): ToolResultInput[] {
  const lastUser = prompt.findLastIndex((message) => message.role === "user");
  const turn = prompt.slice(lastUser + 1);
  const inputs = new Map<string, unknown>();
  for (const message of turn) {
    if (message.role !== "assistant") continue;
    for (const part of message.content) if (part.type === "tool-call") inputs.set(part.toolCallId, part.input);
  }
  return turn.flatMap((message) =>
    message.role !== "tool"
      ? []
      : message.content.flatMap((part): ToolResultInput[] => {
          if (part.type !== "tool-result") return [];
          const input = inputs.get(part.toolCallId) as ToolResultInput["input"];
          const { output } = part;
          if (output.type === "json") {
            return [{ toolName: part.toolName, input, output: output.value as unknown as ToolResultInput["output"] }];
          }
          const error = output.type === "error-text" || output.type === "text" ? output.value : JSON.stringify(output);
          return [{ toolName: part.toolName, input, output: null, error }];
        }),
  );
}

function chatTurn(options: LanguageModelV4CallOptions): { text: string; toolCall?: Completion["toolCall"] } {
  const { prompt } = options;
  const assistantMessages = earlierAnswers(prompt);
  if (prompt.at(-1)?.role === "tool") {
    return { text: composeToolAnswer({ results: toolResultsOf(prompt), assistantMessages }) };
  }
  const userMessage = userTexts(prompt).at(-1) ?? "";
  const toolNames = (options.tools ?? []).filter((tool) => tool.type === "function").map((tool) => tool.name);
  const call = decideMemoryToolCall(userMessage, toolNames);
  if (call) {
    return {
      text: "",
      toolCall: { toolCallId: generateToolCallId(), toolName: call.toolName, input: JSON.stringify(call.input) },
    };
  }
  return { text: composeOfflineReply({ system: systemText(prompt), userMessage, assistantMessages }) };
}

function complete(options: LanguageModelV4CallOptions): Completion {
  const { prompt, responseFormat, maxOutputTokens } = options;
  const isJson = responseFormat?.type === "json";
  const chat = isJson ? null : chatTurn(options);
  const fullText = chat ? chat.text : structuredOutput(options, isJson ? responseFormat.name : undefined);
  const text = maxOutputTokens === undefined ? fullText : truncateToTokens(fullText, maxOutputTokens);
  const truncated = text !== fullText;

  const inputTokens = countTokens(prompt.map(promptText).join("\n"));
  const outputTokens = countTokens(chat?.toolCall ? chat.toolCall.input : text);
  return {
    text,
    ...(chat?.toolCall ? { toolCall: chat.toolCall } : {}),
    chunks: isJson ? fixedChunks(text, JSON_CHUNK_CHARS) : wordChunks(text),
    finishReason: chat?.toolCall
      ? { unified: "tool-calls", raw: "tool_calls" }
      : truncated
        ? { unified: "length", raw: "length" }
        : { unified: "stop", raw: "stop" },
    usage: {
      inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: outputTokens, text: outputTokens, reasoning: 0 },
    },
    warnings: [],
  };
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return new Promise((resolve) => setTimeout(resolve, ms));
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortReason(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

function pacedStream(
  parts: LanguageModelV4StreamPart[],
  delayMs: number,
  signal: AbortSignal | undefined,
): ReadableStream<LanguageModelV4StreamPart> {
  const queue = [...parts];
  return new ReadableStream<LanguageModelV4StreamPart>({
    async pull(controller) {
      try {
        if (signal?.aborted) throw abortReason(signal);
        const part = queue.shift();
        if (part === undefined) {
          controller.close();
          return;
        }
        if (part.type === "text-delta" && delayMs > 0) await sleep(delayMs, signal);
        controller.enqueue(part);
      } catch (error) {
        controller.error(error);
      }
    },
    cancel() {
      queue.length = 0;
    },
  });
}

export class OfflineLanguageModel implements LanguageModelV4 {
  readonly specificationVersion = "v4";
  readonly provider = "offline";
  readonly modelId = OFFLINE_CHAT_MODEL_ID;
  /** No URLs are fetched natively: the offline model reads text only. */
  readonly supportedUrls = {};

  async doGenerate(options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
    options.abortSignal?.throwIfAborted();
    const { text, toolCall, finishReason, usage, warnings } = complete(options);
    return {
      content: toolCall ? [{ type: "tool-call", ...toolCall }] : [{ type: "text", text }],
      finishReason,
      usage,
      warnings,
      response: { id: generateResponseId(), modelId: this.modelId, timestamp: new Date() },
    };
  }

  async doStream(options: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> {
    options.abortSignal?.throwIfAborted();
    const { chunks, toolCall, finishReason, usage, warnings } = complete(options);
    const textId = "0";
    const body: LanguageModelV4StreamPart[] = toolCall
      ? [
          { type: "tool-input-start", id: toolCall.toolCallId, toolName: toolCall.toolName },
          { type: "tool-input-delta", id: toolCall.toolCallId, delta: toolCall.input },
          { type: "tool-input-end", id: toolCall.toolCallId },
          { type: "tool-call", ...toolCall },
        ]
      : [
          { type: "text-start", id: textId },
          ...chunks.map((delta): LanguageModelV4StreamPart => ({ type: "text-delta", id: textId, delta })),
          { type: "text-end", id: textId },
        ];
    const parts: LanguageModelV4StreamPart[] = [
      { type: "stream-start", warnings },
      { type: "response-metadata", id: generateResponseId(), modelId: this.modelId, timestamp: new Date() },
      ...body,
      { type: "finish", finishReason, usage },
    ];
    return { stream: pacedStream(parts, offlineDelayMs(), options.abortSignal) };
  }
}

export const offlineLanguageModel = new OfflineLanguageModel();
