/** Captured after every AI SDK conversion, so the debug record never rebuilds "what the model saw". */
import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4Middleware } from "@ai-sdk/provider";
import { wrapLanguageModel } from "ai";

export interface CapturedCall {
  type: "stream" | "generate";
  provider: string;
  modelId: string;
  at: string;
  params: Record<string, unknown>;
}

/** LanguageModelV4CallOptions → a JSON value: functions and the abort signal dropped, bytes summarised. */
export function toCapturedParams(params: LanguageModelV4CallOptions): Record<string, unknown> {
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
 * The output waits for `onCall`, so the record is stored before any answer reaches the user, while
 * writing it overlaps the model's time to first token instead of adding to it.
 */
export function withCapture(
  model: LanguageModelV4,
  calls: CapturedCall[],
  onCall?: (call: CapturedCall) => Promise<void>,
): LanguageModelV4 {
  const record = async (type: CapturedCall["type"], params: LanguageModelV4CallOptions) => {
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
  const middleware: LanguageModelV4Middleware = {
    specificationVersion: "v4",
    wrapGenerate: async ({ doGenerate, params }) => {
      const recorded = record("generate", params);
      try {
        return await doGenerate();
      } finally {
        await recorded;
      }
    },
    wrapStream: async ({ doStream, params }) => {
      const recorded = record("stream", params);
      let result: Awaited<ReturnType<typeof doStream>>;
      try {
        result = await doStream();
      } catch (error) {
        await recorded;
        throw error;
      }
      // A TransformStream calls transform only once start's promise resolves: no part of the
      // answer passes before the record is written.
      const afterRecord = new TransformStream<unknown, unknown>({ start: () => recorded });
      return { ...result, stream: result.stream.pipeThrough(afterRecord) as typeof result.stream };
    },
  };
  return wrapLanguageModel({ model, middleware });
}
