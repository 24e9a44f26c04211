import { describe, expect, it } from "vitest";
import type { MemoryType } from "@/db/schema";
import { titleMemory } from "@/lib/memory/extraction/memory-title";
import { titleRepeats } from "@/lib/memory/retrieval/format";
import { titleMemoryOffline } from "./memory-title";
import { offlineLanguageModel } from "./model";

const cases: [content: string, type: MemoryType, title: string][] = [
  // What a memory is, the way a heading names it: the subject of "my … is …".
  ["My bike lock code word is ZEBRA-RW-9", "fact", "Bike lock code word"],
  ["My sister's name is Maya", "personal", "Sister's name"],
  ["The wifi password at the cabin is hunter2", "fact", "Wifi password at the cabin"],
  // A statement the extractor's rules read: their title.
  ["I am allergic to penicillin", "fact", "Allergy"],
  ["I'm vegetarian", "preference", "Diet"],
  // A note in the user's own words: its topic and its type.
  ["Prefers window seats on long flights", "preference", "Travel preference"],
  ["Training for the Lisbon marathon in October", "goal", "Fitness goal"],
  // Nothing to go on: the type.
  ["Zorblax is quux", "fact", "Fact"],
  ["Gave the zorblax away", "decision", "Decision"],
];

describe("titleMemoryOffline", () => {
  it.each(cases)("%s (%s) → %s, never the content", (content, type, title) => {
    expect(titleMemoryOffline({ content, type })).toEqual({ title });
    expect(titleRepeats(title, content)).toBe(false);
  });

  it("answers the memory_title output of the offline model, as titleMemory asks for it", async () => {
    expect(
      await titleMemory(offlineLanguageModel, { content: "My bike lock code word is ZEBRA-RW-9", type: "fact" }),
    ).toBe("Bike lock code word");
  });
});
