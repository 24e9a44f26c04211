import { describe, expect, it } from "vitest";
import { titleSchema } from "@/lib/chat/title-prompt";
import { consolidationOutputSchema } from "@/lib/memory/extraction/consolidation-schema";
import { extractionResultSchema, memoryTitleSchema } from "@/lib/memory/extraction/schema";
import { checkStrictSchema } from "@/tests/contracts/openai-fake";
import { strictOutputSchema, UNSENT_KEYWORDS } from "./strict-schema";

const sent = async (schema: Parameters<typeof strictOutputSchema>[0]) =>
  JSON.stringify(await strictOutputSchema(schema).jsonSchema);

describe("strictOutputSchema", () => {
  it.each([
    ["memory_extraction", extractionResultSchema],
    ["conversation_title", titleSchema],
    ["memory_title", memoryTitleSchema],
    ["memory_consolidation", consolidationOutputSchema],
  ] as const)("sends %s within the strict subset, even for a fine-tuned model", async (_name, schema) => {
    const json = JSON.parse(await sent(schema));
    for (const keyword of UNSENT_KEYWORDS) expect(JSON.stringify(json)).not.toContain(`"${keyword}"`);
    expect(() => checkStrictSchema(json, "schema", "ft:gpt-4o-mini:acme::abc")).not.toThrow();
  });

  it("still validates lengths and ranges with zod after parsing", async () => {
    const schema = strictOutputSchema(titleSchema);
    expect(await schema.validate?.({ title: "" })).toMatchObject({ success: false });
    expect(await schema.validate?.({ title: "x".repeat(101) })).toMatchObject({ success: false });
    expect(await schema.validate?.({ title: "Trip to Lisbon" })).toEqual({
      success: true,
      value: { title: "Trip to Lisbon" },
    });
  });
});
