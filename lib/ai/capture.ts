/**
 * Capture at the model boundary: a language-model middleware that records, for every call, the
 * exact parameters the provider's model receives (prompt messages and settings), after every
 * conversion the AI SDK made. The debug record stores these captures as they are — it never
 * rebuilds "what the model saw" from somewhere else.
 */
import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3Middleware } from "@ai-sdk/provider";
import { wrapLanguageModel } from "ai";

export interface CapturedCall {
  /** "stream" for streamText, "generate" for generateText. */
  type: "stream" | "generate";
  provider: string;
  modelId: string;
  /** When the call reached the model. */
  at: string;
  /** The call options the model received, made JSON-safe (the abort signal dropped, binary data described). */
  params: Record<string, unknown>;
}

/** LanguageModelV3CallOptions → a JSON value: functions and the abort signal dropped, bytes summarised. */
export function toCapturedParams(params: LanguageModelV3CallOptions): Record<string, unknown> {
  const { abortSignal: _signal, ...rest } = params;
  return JSON.parse(
    JSON.stringify(rest, (_key, value: unknown) => {
      if (value instanceof Uint8Array) return { type: "bytes", length: value.byteLength };
      if (value instanceof URL) return value.toString();
      return typeof value === "function" ? undefined : value;
    }),
  ) as Record<string, unknown>;
}

/**
 * A model that behaves like `model` and appends what each call received to `calls`. `onCall`, when
 * given, runs after the capture and before the model is called (the chat turn writes its debug
 * record there, so a crash during the answer still leaves the record of what the model received).
 */
export function withCapture(
  model: LanguageModelV3,
  calls: CapturedCall[],
  onCall?: (call: CapturedCall) => Promise<void>,
): LanguageModelV3 {
  const record = async (type: CapturedCall["type"], params: LanguageModelV3CallOptions) => {
    const call: CapturedCall = {
      type,
      provider: model.provider,
      modelId: model.modelId,
      at: new Date().toISOString(),
      params: toCapturedParams(params),
    };
    calls.push(call);
    await onCall?.(call);
  };
  const middleware: LanguageModelV3Middleware = {
    specificationVersion: "v3",
    wrapGenerate: async ({ doGenerate, params }) => {
      await record("generate", params);
      return doGenerate();
    },
    wrapStream: async ({ doStream, params }) => {
      await record("stream", params);
      return doStream();
    },
  };
  return wrapLanguageModel({ model, middleware });
}
