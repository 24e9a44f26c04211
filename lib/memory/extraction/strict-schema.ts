/**
 * OpenAI's Structured Outputs guide ("Supported schemas") lists no `minLength`/`maxLength`, and its
 * other constraints are "not yet … for fine-tuned models"; compatible servers support less. So only
 * the structure is sent, and zod checks the whole schema on the parsed answer.
 */
import type { JSONSchema7, JSONSchema7Definition } from "@ai-sdk/provider";
import { jsonSchema, type Schema, zodSchema } from "ai";
import type { z } from "zod";

export const UNSENT_KEYWORDS = [
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minItems",
  "maxItems",
] as const;

const UNSENT = new Set<string>(UNSENT_KEYWORDS);

function strip(node: JSONSchema7Definition): JSONSchema7Definition {
  if (typeof node !== "object" || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (UNSENT.has(key)) continue;
    if (key === "properties" || key === "$defs" || key === "definitions") {
      out[key] = Object.fromEntries(
        Object.entries(value as Record<string, JSONSchema7Definition>).map(([k, v]) => [k, strip(v)]),
      );
    } else if (key === "items") {
      out[key] = Array.isArray(value) ? value.map(strip) : strip(value as JSONSchema7Definition);
    } else if (key === "anyOf" || key === "oneOf" || key === "allOf") {
      out[key] = (value as JSONSchema7Definition[]).map(strip);
    } else {
      out[key] = value;
    }
  }
  return out as JSONSchema7;
}

export function strictSubset(schema: JSONSchema7): JSONSchema7 {
  return strip(schema) as JSONSchema7;
}

export function strictOutputSchema<S extends z.ZodType>(schema: S): Schema<z.output<S>> {
  const full = zodSchema(schema);
  return jsonSchema<z.output<S>>(async () => strictSubset(await full.jsonSchema), {
    validate: (value) => {
      const result = schema.safeParse(value);
      return result.success ? { success: true, value: result.data } : { success: false, error: result.error };
    },
  });
}
