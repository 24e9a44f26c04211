/**
 * The offline model's `memory_title`: a label made from the content by rules, never the content
 * itself. A topic is the last one named, since what a note is about comes after its verb
 * ("Training for the … marathon": fitness, not the train).
 */
import { capitalize } from "@/core/text";
import type { MemoryType } from "@/db/schema";
import type { MemoryTitleInput } from "@/lib/memory/extraction/prompt";
import { type MemoryTitleResult, memoryTitleSchema } from "@/lib/memory/extraction/schema";
import { extractMemoriesOffline } from "./extractor";
import { conceptsOf } from "./text-features";

const MAX_SUBJECT_WORDS = 6;

const SUBJECT =
  /^(?:(?:my|our|the)\s+([\p{L}\p{N}'’ -]+?)|([\p{L}\p{N}-]+['’]s\s+[\p{L}\p{N}'’ -]+?))\s+(?:is|are|was|were)\s+\S/iu;

/** Concepts that say how the user relates to a thing, not what it is: the type says that. */
const NOT_TOPICS = ["preference", "aversion", "goal", "todo"];

const TYPE_TITLES: Readonly<Record<MemoryType, string>> = {
  personal: "About me",
  preference: "Preference",
  goal: "Goal",
  insight: "Insight",
  fact: "Fact",
  context: "Context",
  actionable: "To do",
  event: "Event",
  decision: "Decision",
};

/** With a topic: "Travel preference"; the topic alone where the type adds nothing ("Health"). */
const TOPIC_SUFFIX: Readonly<Record<MemoryType, string>> = {
  personal: "",
  preference: " preference",
  goal: " goal",
  insight: " insight",
  fact: "",
  context: "",
  actionable: " task",
  event: " event",
  decision: " decision",
};

function subjectOf(content: string): string | undefined {
  const match = SUBJECT.exec(content.trim());
  const subject = (match?.[1] ?? match?.[2])?.trim();
  if (!subject || subject.split(/\s+/).length > MAX_SUBJECT_WORDS) return undefined;
  return capitalize(subject);
}

export function titleMemoryOffline(input: MemoryTitleInput): MemoryTitleResult {
  // The extractor resolves dates against a current date; a title names none, so any date serves.
  const extracted = extractMemoriesOffline({ currentDate: "2000-01-01", userMessage: input.content }).memories[0];
  const topic = conceptsOf(input.content)
    .filter((concept) => !NOT_TOPICS.includes(concept))
    .at(-1);
  const title =
    subjectOf(input.content) ??
    extracted?.title ??
    (topic ? `${capitalize(topic)}${TOPIC_SUFFIX[input.type]}` : TYPE_TITLES[input.type]);
  return memoryTitleSchema.parse({ title });
}
