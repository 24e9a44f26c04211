/** Multi-valued facts ("Is allergic to …", "Likes …", goals) never supersede each other. */
import {
  type ConsolidationCandidate,
  type NearMemoryForPrompt,
  normaliseMemoryText,
} from "@/lib/memory/extraction/consolidation-prompt";
import { type ConsolidationOutput, consolidationOutputSchema } from "@/lib/memory/extraction/consolidation-schema";
import {
  aboutSomeoneElse,
  attributeClasses,
  CESSATION,
  endedActivity,
  hasChangeCue,
  isActivity,
  restates,
  sharedTopic,
} from "./topic";

/** Two embeddings this close are the same memory, whatever the wording differences. */
export const SAME_MEMORY_SIMILARITY = 0.97;

interface Attitude {
  kind: "attitude";
  verb: string;
  positive: boolean;
  object: string;
}

interface Slot {
  kind: "slot";
  key: string;
  value: string;
}

type Shape = Attitude | Slot;

const ATTITUDE =
  /^(prefers|likes|loves|enjoys|adores|dislikes|is a fan of|no longer (?:likes|loves|enjoys|adores))\s+(.+)$/;
const SINGLE_VALUED_LEADS = /^(lives in|works at|works as|is from)\s+(.+)$/;
const AGE = /^is (\d{1,3}) years? old$/;
/** Diets that exclude each other (one at a time); conditions such as "lactose intolerant" are not among them. */
const DIET = /^is (?:an? )?(vegetarian|vegan|pescatarian|flexitarian|omnivore|omnivorous|carnivore)$/;
const SUBJECT_IS_VALUE = /^(.{1,60}?)\s+(?:is|are)\s+(.+)$/;
/** Each entry is the canonical noun and the words people use for it. */
const FAVOURITE_NOUNS: readonly (readonly [string, RegExp])[] = [
  ["movie", /^(?:film|movie|flick|motion picture)s?$/],
  ["show", /^(?:tv show|show|tv series|series|tv programme|programme|program)s?$/],
  ["book", /^(?:book|novel)s?$/],
  ["song", /^(?:song|track|tune)s?$/],
  ["food", /^(?:food|dish|meal)s?$/],
  ["drink", /^(?:drink|beverage)s?$/],
  ["game", /^(?:game|video game)s?$/],
];

function canonicalSubject(subject: string): string {
  const favourite = /^favorite (.+)$/.exec(subject);
  const noun = favourite?.[1] ? FAVOURITE_NOUNS.find(([, words]) => words.test(favourite[1] ?? ""))?.[0] : undefined;
  return noun ? `favorite ${noun}` : subject;
}

function shapeOf(content: string, title: string | null): Shape | undefined {
  const text = normaliseMemoryText(content);
  const attitude = ATTITUDE.exec(text);
  if (attitude) {
    const verb = attitude[1] ?? "";
    const object = attitude[2] ?? "";
    // "Prefers X" is exclusive within its topic (the title): one preferred tea at a time.
    if (verb === "prefers" && title)
      return { kind: "slot", key: `prefers|${normaliseMemoryText(title)}`, value: object };
    const positive = verb !== "dislikes" && !verb.startsWith("no longer");
    return { kind: "attitude", verb, positive, object: withoutPlurals(withoutArticles(object)) };
  }
  const lead = SINGLE_VALUED_LEADS.exec(text);
  if (lead) return { kind: "slot", key: lead[1] ?? "", value: lead[2] ?? "" };
  const age = AGE.exec(text);
  if (age) return { kind: "slot", key: "age", value: age[1] ?? "" };
  const diet = DIET.exec(text);
  if (diet) return { kind: "slot", key: "diet", value: diet[1] ?? "" };
  // Eating meat is a diet too: it ends "Is vegetarian" or "Is vegan".
  if (text === "eats meat") return { kind: "slot", key: "diet", value: "omnivore" };
  // Retiring ends an occupation: "Retired from nursing" replaces "Works as a nurse".
  const retired = /^(?:is )?retired(?: from (.+))?$/.exec(text);
  if (retired) return { kind: "slot", key: "works as", value: `retired ${retired[1] ?? ""}`.trim() };
  const subject = SUBJECT_IS_VALUE.exec(text);
  // "Goal is to …" lists one of many goals; "Is …" has no subject of its own.
  if (subject && !text.startsWith("is ") && !(subject[2] ?? "").startsWith("to ")) {
    return { kind: "slot", key: canonicalSubject(subject[1] ?? ""), value: subject[2] ?? "" };
  }
  return undefined;
}

function withoutArticles(text: string): string {
  return text
    .replace(/\b(?:the|a|an)\s+/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

function withoutPlurals(text: string): string {
  return text.replace(/\b(\p{L}{3,}?)(?:es|s)\b/gu, (word, base: string) => (word.endsWith("ss") ? word : base));
}

const NEGATED = /^(?:is )?(?:no longer|not)\s+(.{3,})$/;
/** Never someone else's name before the denied words ("sister maya lives in lisbon"). */
const OWN_LEAD = /^(?:(?:is|are|was|works?|worked)\b.*)?$/;

/** Articles are ignored on both sides; a lead must be the user's own ("is no longer a teacher" denies "works as a teacher"). */
function negates(negated: string, statement: string): boolean {
  const denied = NEGATED.exec(withoutPlurals(withoutArticles(negated)))?.[1];
  const stated = withoutPlurals(withoutArticles(statement));
  if (!denied || NEGATED.test(stated)) return false;
  if (stated === denied) return true;
  return stated.endsWith(` ${denied}`) && OWN_LEAD.test(stated.slice(0, -denied.length - 1));
}

function containsWords(longerText: string, shorterText: string): boolean {
  // Punctuation is not a word: "lisbon, in alfama" contains "lisbon".
  const words = (text: string) =>
    text
      .replace(/[^\p{L}\p{N}'\s-]+/gu, " ")
      .replace(/\s+/g, " ")
      .trim();
  const longer = words(longerText);
  const shorter = words(shorterText);
  return longer.length > shorter.length && ` ${longer} `.includes(` ${shorter} `);
}

function decide(
  action: ConsolidationOutput["action"],
  target: NearMemoryForPrompt | null,
  reason: string,
  update?: { content: string; title: string },
): ConsolidationOutput {
  return consolidationOutputSchema.parse({
    action,
    targetId: target?.id ?? null,
    content: update?.content ?? null,
    title: update?.title ?? null,
    reason,
  });
}

function compare(candidate: ConsolidationCandidate, memory: NearMemoryForPrompt): ConsolidationOutput | undefined {
  const next = normaliseMemoryText(candidate.content);
  const stored = normaliseMemoryText(memory.content);
  if (next === stored || withoutPlurals(next) === withoutPlurals(stored))
    return decide("SKIP", memory, "The same memory is already stored.");
  if (negates(next, stored) || negates(stored, next)) {
    return decide("SUPERSEDE", memory, "The new memory contradicts the stored one: one denies what the other states.");
  }
  if (memory.similarity >= SAME_MEMORY_SIMILARITY) {
    return decide("SKIP", memory, `Nearly identical to a stored memory (similarity ${memory.similarity}).`);
  }

  const a = shapeOf(candidate.content, candidate.title);
  const b = shapeOf(memory.content, memory.title);
  if (a?.kind === "slot" && b?.kind === "slot" && a.key === b.key) {
    if (a.value === b.value) return decide("SKIP", memory, `The stored memory already gives "${a.key}" this value.`);
    if (containsWords(a.value, b.value)) {
      return decide("UPDATE", memory, `Adds detail to the stored value of "${a.key}".`, {
        content: candidate.content,
        title: candidate.title,
      });
    }
    return decide("SUPERSEDE", memory, `A new value for "${a.key}" replaces the stored one.`);
  }
  if (a?.kind === "attitude" && b?.kind === "attitude" && a.object === b.object && a.positive !== b.positive) {
    return decide("SUPERSEDE", memory, `The user's attitude to "${a.object}" changed.`);
  }

  // "Quit smoking", "Hasn't had a drink since March": every memory of doing it ("Drinks wine most evenings").
  const activity = endedActivity(candidate.content);
  if (activity && isActivity(memory.content, activity) && !aboutSomeoneElse(memory.content))
    return decide("SUPERSEDE", memory, "The user stopped the activity the stored memory says they do.");
  // "Is not diabetic" (a correction) against "Has type 2 diabetes": one word denied, the stored condition its derivation.
  const denied = /^is (?:not|no longer) ([\p{L}-]+)$/u.exec(normaliseMemoryText(candidate.content))?.[1];
  if (denied && !aboutSomeoneElse(memory.content) && sharedTopic(denied, memory.content) !== undefined)
    return decide("SUPERSEDE", memory, `The user says they are not ${denied}: the stored memory no longer holds.`);

  const overtaken = preferredOver(candidate.content, memory.content);
  if (overtaken) return decide("SUPERSEDE", memory, `The user now prefers something over "${overtaken}".`);

  const byTopic = supersedeByTopic(candidate, memory);
  if (byTopic) return byTopic;

  if (containsWords(next, stored)) {
    return decide("UPDATE", memory, "Adds detail to the stored memory.", {
      content: candidate.content,
      title: candidate.title,
    });
  }
  if (containsWords(stored, next))
    return decide("SKIP", memory, "The stored memory already says this, in more detail.");
  return undefined;
}

/** Never for a memory about someone else, on either side. */
function supersedeByTopic(
  candidate: ConsolidationCandidate,
  memory: NearMemoryForPrompt,
): ConsolidationOutput | undefined {
  if (aboutSomeoneElse(candidate.content) || aboutSomeoneElse(memory.content)) return undefined;
  const ended = CESSATION.test(candidate.content);
  // What an ending ends: "Traded in the Clio for a Golf" ends the Clio, not golf.
  const endedPart = candidate.content.replace(
    /\b((?:traded(?: in)?|swapped|exchanged|left|sold)\s+.+?)\s+for\s+.+$/i,
    "$1",
  );
  const storedClasses = attributeClasses(memory.content);
  const shared = [...attributeClasses(candidate.content)].find((c) => storedClasses.has(c));
  if (shared) {
    const replaces = ended
      ? sharedTopic(endedPart, memory.content) !== undefined
      : !restates(candidate.content, memory.content);
    if (replaces)
      return decide("SUPERSEDE", memory, `A new statement of the user's ${shared} replaces the stored one.`);
  }
  // An ending must name what it ends ("Sold the Corolla"); a new value must not restate the stored
  // one ("Moved in with my partner in Berlin" / "Lives in Berlin" is no change).
  const changed = hasChangeCue(candidate.content) && (ended || !restates(candidate.content, memory.content));
  const topic = changed ? sharedTopic(ended ? endedPart : candidate.content, memory.content) : undefined;
  if (topic) return decide("SUPERSEDE", memory, `The user's "${topic}" changed: the stored memory no longer holds.`);
  return undefined;
}

/** Nothing but a liking of Y ends: "Likes mountain walks" stays, and so does a dislike. */
function preferredOver(candidate: string, stored: string): string | undefined {
  const comparison = /^prefers (.+?) (?:over|to|rather than|instead of) (.+)$/.exec(normaliseMemoryText(candidate));
  const liking = /^(?:prefers|likes|loves|enjoys|adores|is a fan of)\s+(.+)$/.exec(normaliseMemoryText(stored));
  if (!comparison?.[1] || !comparison[2] || !liking?.[1] || aboutSomeoneElse(stored)) return undefined;
  const [preferred, over, object] = [comparison[1], comparison[2], liking[1]];
  return sharedTopic(over, object) !== undefined && sharedTopic(preferred, object) === undefined ? over : undefined;
}

export function consolidateOffline(input: {
  candidate: ConsolidationCandidate;
  existing: readonly NearMemoryForPrompt[];
}): ConsolidationOutput {
  const bySimilarity = [...input.existing].sort((x, y) => y.similarity - x.similarity);
  for (const memory of bySimilarity) {
    const decision = compare(input.candidate, memory);
    if (decision) return decision;
  }
  return decide(
    "ADD",
    null,
    input.existing.length > 0 ? "Related memories state different facts." : "Nothing similar is stored.",
  );
}
