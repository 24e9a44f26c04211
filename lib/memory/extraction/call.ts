/**
 * No SDK-level retries: the job's are the only ones, so every attempt is counted and visible.
 * Malformed output is a failed attempt, never an empty answer. The output name is what the offline
 * model dispatches on.
 */
import type { LanguageModelV4, LanguageModelV4Middleware } from "@ai-sdk/provider";
import { generateText, NoObjectGeneratedError, Output, wrapLanguageModel } from "ai";
import type { z } from "zod";
import { extractionConfig, modelCallConfig } from "@/core/config";
import { handoffOptions } from "./schema";
import { strictOutputSchema } from "./strict-schema";

/** No retry would change the answer (a refusal, a repeated cut-off): the job fails at once. */
export class TerminalOutputError extends Error {
  override readonly name = "TerminalOutputError";
}

export class RefusedOutputError extends TerminalOutputError {
  constructor(
    readonly outputName: string,
    readonly refusal: string,
  ) {
    super(`The model refused the "${outputName}" output: ${refusal}`);
  }
}

export class TruncatedOutputError extends TerminalOutputError {
  constructor(
    readonly outputName: string,
    readonly maxOutputTokens: number,
  ) {
    super(
      `The model's "${outputName}" output was cut off at the output limit (${maxOutputTokens} tokens, after a retry with the larger limit)`,
    );
  }
}

/** OpenAI's `message.refusal` reaches the AI SDK as text with finish reason "content-filter" over the raw "stop". */
const refusalDetector = (outputName: string): LanguageModelV4Middleware => ({
  specificationVersion: "v4",
  wrapGenerate: async ({ doGenerate }) => {
    const result = await doGenerate();
    if (result.finishReason.unified === "content-filter" && result.finishReason.raw === "stop") {
      const text = result.content.map((part) => (part.type === "text" ? part.text : "")).join("");
      throw new RefusedOutputError(outputName, text || "no reason given");
    }
    return result;
  },
});

export class MalformedOutputError extends Error {
  override readonly name = "MalformedOutputError";

  constructor(
    readonly outputName: string,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`The model's "${outputName}" output was malformed: ${detail}`, options);
  }
}

interface Issue {
  path?: readonly PropertyKey[];
  message?: string;
}

function issuesOf(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && typeof e === "object" && depth < 4; depth++) {
    const issues = (e as { issues?: unknown }).issues;
    if (Array.isArray(issues) && issues.length > 0) {
      return (issues as Issue[])
        .slice(0, 3)
        .map((issue) => `${(issue.path ?? []).map(String).join(".") || "(root)"}: ${issue.message ?? "invalid"}`)
        .join("; ");
    }
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

export async function generateStructured<S extends z.ZodType>(
  model: LanguageModelV4,
  request: {
    schema: S;
    name: string;
    system: string;
    prompt: string;
    input: unknown;
  },
): Promise<z.output<S>> {
  const guarded = wrapLanguageModel({ model, middleware: refusalDetector(request.name) });
  const call = (maxOutputTokens: number) =>
    generateText({
      model: guarded,
      instructions: request.system,
      prompt: request.prompt,
      output: Output.object({ schema: strictOutputSchema(request.schema), name: request.name }),
      providerOptions: handoffOptions({ task: request.name, input: request.input }),
      temperature: extractionConfig.temperature,
      maxOutputTokens,
      timeout: modelCallConfig.structuredTimeoutMs,
      maxRetries: 0,
    });
  const truncated = (error: unknown) => NoObjectGeneratedError.isInstance(error) && error.finishReason === "length";
  try {
    let result: Awaited<ReturnType<typeof call>>;
    try {
      result = await call(extractionConfig.maxOutputTokens);
    } catch (error) {
      if (!truncated(error)) throw error;
      // Cut off at the limit: once more with the larger one, then the cause is named.
      result = await call(extractionConfig.retryMaxOutputTokens).catch((again: unknown) => {
        throw truncated(again) ? new TruncatedOutputError(request.name, extractionConfig.retryMaxOutputTokens) : again;
      });
    }
    return result.output as z.output<S>;
  } catch (error) {
    if (NoObjectGeneratedError.isInstance(error)) {
      const what = error.message.replace(/^No object generated:\s*/, "").replace(/\.$/, "");
      const issues = issuesOf(error.cause);
      throw new MalformedOutputError(request.name, issues ? `${what} (${issues})` : what, { cause: error });
    }
    throw error;
  }
}
