/**
 * Rewriting between grammatical persons, for the offline models: the extractor keeps what the
 * user said in their own words ("I love my dog" → "Loves my dog"; a task drops the possessive:
 * "renew my passport" → "renew passport"), and the chat model turns memory phrasing back into an
 * answer addressed to the user ("you love your dog").
 */
import { capitalize, uncapitalize } from "@/core/text";

type WordMap = Readonly<Record<string, string>>;

const FIRST_TO_THIRD: WordMap = {
  i: "they",
  "i'm": "they're",
  "i've": "they've",
  "i'll": "they'll",
  "i'd": "they'd",
  me: "them",
  my: "their",
  mine: "theirs",
  myself: "themselves",
};
const FIRST_TO_SECOND: WordMap = {
  i: "you",
  "i'm": "you're",
  "i've": "you've",
  "i'll": "you'll",
  "i'd": "you'd",
  me: "you",
  my: "your",
  mine: "yours",
  myself: "yourself",
};
/** Used only when the user is the memory's subject, so "their" cannot mean someone else. */
const THIRD_TO_SECOND: WordMap = {
  they: "you",
  "they're": "you're",
  "they've": "you've",
  "they'll": "you'll",
  "they'd": "you'd",
  them: "you",
  their: "your",
  theirs: "yours",
  themselves: "yourself",
  themself: "yourself",
};

/** A capitalised word keeps its capital, except the pronoun I and its contractions (capitalised everywhere). */
function replaceWords(text: string, map: WordMap): string {
  return text.replace(/[A-Za-z]+(?:['’][a-z]+)?/g, (word) => {
    const lower = word.toLowerCase().replace("’", "'");
    const replacement = map[lower];
    if (replacement === undefined) return word;
    const capitalised = /^[A-Z]/.test(word) && !/^i(?:$|')/.test(lower);
    return capitalised ? capitalize(replacement) : replacement;
  });
}

export function withoutOwnPossessive(text: string): string {
  return text.replace(/\b(?:my|our)\s+/gi, "").trim();
}

export function toThirdPerson(text: string): string {
  return replaceWords(text.replace(/\bI am\b/gi, "they are").replace(/\bI was\b/gi, "they were"), FIRST_TO_THIRD);
}

const THIRD_PERSON_VERBS = new Set(
  `adores aims attends avoids believes cares cooks dislikes does drinks eats enjoys feels finds gets goes has hates
  hikes hopes intends is keeps knows likes listens lives loves misses needs owns plans plays prefers reads runs
  speaks struggles studies suffers swims takes teaches tends thinks travels tries uses values visits volunteers
  walks wants was watches wishes works writes`.split(/\s+/),
);
const SUBJECT_READY_WORDS = new Set(
  `would can cannot can't could should will might must adopted began bought completed decided finished got graduated
  joined left lost met moved quit recently started switched used visited`.split(/\s+/),
);
const IRREGULAR_BASE_FORMS: WordMap = { is: "are", was: "were", has: "have", does: "do", goes: "go" };
const OWNED_NOUNS = new Set(
  `age birthday career diet dog cat favorite favourite goal home hometown job name native occupation partner pet
  plan role`.split(/\s+/),
);

function baseForm(verb: string): string {
  const irregular = IRREGULAR_BASE_FORMS[verb];
  if (irregular) return irregular;
  if (verb.endsWith("ies")) return `${verb.slice(0, -3)}y`;
  if (/(ch|sh|ss|x|z|o)es$/.test(verb)) return verb.slice(0, -2);
  return verb.endsWith("s") ? verb.slice(0, -1) : verb;
}

const IRREGULAR_THIRD_PERSON: Record<string, string> = {
  have: "has",
  "haven't": "hasn't",
  be: "is",
  am: "is",
  are: "is",
  "aren't": "isn't",
  were: "was",
  "weren't": "wasn't",
  do: "does",
  "don't": "doesn't",
};

/** A past form, a modal or another negation is the same for every person and stays. */
export function thirdPersonVerb(verb: string): string {
  const lower = verb.toLowerCase();
  const irregular = IRREGULAR_THIRD_PERSON[lower];
  if (irregular) return irregular;
  if (/n't$|ed$/.test(lower)) return lower;
  if (/^(?:was|had|did|can|could|will|would|shall|should|may|might|must|ought)$/.test(lower)) return lower;
  if (/[^aeiou]y$/.test(lower)) return `${lower.slice(0, -1)}ies`;
  if (/(?:s|sh|ch|x|z|o)$/.test(lower)) return `${lower}es`;
  return `${lower}s`;
}

/** Undefined when it cannot be done safely ("Maya is a doctor": whose Maya is not clear). */
export function toSecondPerson(memory: string): string | undefined {
  const text = memory.trim().replace(/(?<!\.)\.$/, "");
  const [first = "", ...rest] = text.split(/\s+/);
  const firstLower = first.toLowerCase().replace("’", "'");
  const remainder = rest.join(" ");

  const userSubject = /^(?:the )?user(?:'s|’s)?\s/i.exec(text);
  if (userSubject) {
    const afterSubject = text.slice(userSubject[0].length);
    if (/'s|’s/.test(userSubject[0])) return `your ${replaceWords(afterSubject, THIRD_TO_SECOND)}`;
    const [verb = "", ...tail] = afterSubject.split(/\s+/);
    const lowerVerb = verb.toLowerCase();
    const subjectVerb = SUBJECT_READY_WORDS.has(lowerVerb) ? lowerVerb : baseForm(lowerVerb);
    return `you ${subjectVerb} ${replaceWords(tail.join(" "), THIRD_TO_SECOND)}`.trimEnd();
  }
  if (firstLower in FIRST_TO_SECOND) {
    const adjusted = text.replace(/^I am\b/i, "you are").replace(/^I was\b/i, "you were");
    return uncapitalize(replaceWords(adjusted, FIRST_TO_SECOND));
  }
  if (THIRD_PERSON_VERBS.has(firstLower)) {
    return `you ${baseForm(firstLower)} ${replaceWords(replaceWords(remainder, FIRST_TO_SECOND), THIRD_TO_SECOND)}`.trimEnd();
  }
  if (SUBJECT_READY_WORDS.has(firstLower)) {
    return `you ${firstLower} ${replaceWords(replaceWords(remainder, FIRST_TO_SECOND), THIRD_TO_SECOND)}`.trimEnd();
  }
  const possessedNoun = firstLower.replace(/'s$/, "");
  if (/'s$/.test(firstLower) || OWNED_NOUNS.has(possessedNoun)) {
    return `your ${uncapitalize(first)} ${replaceWords(remainder, FIRST_TO_SECOND)}`.trimEnd();
  }
  return undefined;
}
