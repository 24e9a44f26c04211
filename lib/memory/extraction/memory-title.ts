/**
 * A title for a memory that came with its content only — `remember` over MCP (lib/mcp/remember.ts)
 * — made the way an extracted memory gets one: by the extraction model, as a short label of what
 * the memory is about ("Allergy", "Bike lock code"), never the content again. One structured call
 * (`memory_title`), with the extraction's call rules (lib/memory/extraction/call.ts).
 */
import type { LanguageModelV4 } from "@ai-sdk/provider";
import { generateStructured, MalformedOutputError } from "./call";
import { buildMemoryTitlePrompt, type MemoryTitleInput } from "./prompt";
import { MEMORY_TITLE_OUTPUT_NAME, memoryTitleSchema } from "./schema";

export async function titleMemory(model: LanguageModelV4, input: MemoryTitleInput): Promise<string> {
  const { system, prompt } = buildMemoryTitlePrompt(input);
  const output = await generateStructured(model, {
    schema: memoryTitleSchema,
    name: MEMORY_TITLE_OUTPUT_NAME,
    system,
    prompt,
    input,
  });
  // A label, as a heading shows it: one line, no quotes around it, no end punctuation.
  const title = output.title
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^["'“”‘’]+|["'“”‘’]+$/g, "")
    .replace(/[\s.,;:!?]+$/, "");
  if (title === "") throw new MalformedOutputError(MEMORY_TITLE_OUTPUT_NAME, "the title is empty");
  return title;
}
