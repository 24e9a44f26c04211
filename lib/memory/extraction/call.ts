/**
 * One structured-output model call, as extraction and consolidation make it: `generateText` with
 * `Output.object({ schema, name })` (the name is what the offline model dispatches on) and the
 * structured input the prompt was built from (schema.ts handoffOptions), a low
 * temperature, and no SDK-level retries — the job's retries are the only ones, so every attempt
 * is counted and visible. Output that is not JSON or does not match the schema is a
 * MalformedOutputError: a failed attempt, never an empty answer.
 */
import type { LanguageModelV4 } from "@ai-sdk/provider";
import { generateText, NoObjectGeneratedError, Output } from "ai";
import type { z } from "zod";
import { extractionConfig } from "@/core/config";
import { handoffOptions } from "./schema";

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

/** The first few validation issues of a schema failure, as "path: message". */
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
    /** What the prompt was built from, handed to the model beside it (see handoffOptions). */
    input: unknown;
  },
): Promise<z.output<S>> {
  try {
    const { output } = await generateText({
      model,
      instructions: request.system,
      prompt: request.prompt,
      output: Output.object({ schema: request.schema, name: request.name }),
      providerOptions: handoffOptions({ task: request.name, input: request.input }),
      temperature: extractionConfig.temperature,
      maxRetries: 0,
    });
    return output as z.output<S>;
  } catch (error) {
    if (NoObjectGeneratedError.isInstance(error)) {
      const what = error.message.replace(/^No object generated:\s*/, "").replace(/\.$/, "");
      const issues = issuesOf(error.cause);
      throw new MalformedOutputError(request.name, issues ? `${what} (${issues})` : what, { cause: error });
    }
    throw error;
  }
}
