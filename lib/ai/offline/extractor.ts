/**
 * The offline model's rule-based memory extractor and conversation titler. It reads only the
 * user's own words (never the assistant's), recognises a fixed set of first-person statement
 * patterns, and produces candidates that satisfy extractionCandidateSchema. It is meant to be
 * predictable rather than clever: anything it does not recognise yields no memory.
 */

import type { MemoryType } from "@/db/schema";
import type { ConversationMessage } from "@/lib/memory/extraction/prompt";
import {
  type ExtractionCandidate,
  type ExtractionResult,
  extractionResultSchema,
  type TitleResult,
  titleSchema,
} from "@/lib/memory/extraction/schema";
import { DATE_EXPRESSION_SOURCE, resolveDateExpression } from "./date-expressions";
import { toThirdPerson } from "./grammatical-person";
import { conceptsOf } from "./text-features";

const MAX_MEMORIES = 10;
const MAX_TITLE_CHARS = 48;
const MAX_CONTENT_CHARS = 300;
const MAX_TAGS = 5;
const MAX_QUOTE_CHARS = 500;
const MAX_TITLE_WORDS = 8;

/** What a pattern recognised in one clause, before the shared fields are filled in. */
interface Recognised {
  type: MemoryType;
  title: string;
  content: string;
  importance: number;
  confidence?: number;
  isActionable?: boolean;
  deadline?: string | null;
}

interface ClauseContext {
  currentDate: string;
}

interface Rule {
  pattern: RegExp;
  build: (match: RegExpExecArray, context: ClauseContext) => Recognised | undefined;
}

// ---------------------------------------------------------------------------------------------
// Text helpers
// ---------------------------------------------------------------------------------------------

const ADVERBS = "(?:(?:really|also|absolutely|actually|totally|just|do|still|definitely|truly|generally|usually)\\s+)*";
const I_AM = "(?:i'm|i am|im)";
const TRAILING_FILLER = /(?:,?\s+(?:by the way|btw|though|too|as well|lol|haha))+$/i;
const LEADING_FILLER =
  /^(?:(?:also|oh|btw|by the way|actually|so|well|and|but|hey|hi|hello|ok|okay|yeah|yes|fyi|just so you know|anyway|plus)[,!]?\s+)+/i;
const TRAILING_DATE = new RegExp(
  `\\s+(?:(?:by|on|before|until|due|no later than)\\s+)?(${DATE_EXPRESSION_SOURCE})$`,
  "i",
);
/** "I want to …" verbs that are conversation, not a goal ("I want to ask you something"). */
const CONVERSATIONAL_VERBS =
  /^(?:know|ask|see|check|talk|chat|say|tell|understand|hear|discuss|share|clarify|confirm|make sure|find out|try this|be reminded)\b/i;
/** Objects of "I like …" that say nothing durable ("I love that", "I like it"). */
const VACUOUS_OBJECTS = /^(?:it|that|this|them|you|those|these|him|her|so much|a lot)\b/i;

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Cuts `text` at a word boundary to at most `max` characters. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max + 1).replace(/\s+\S*$/, "");
  return (cut.length > 0 ? cut : text.slice(0, max)).trimEnd();
}

function cleanObject(text: string): string {
  return text
    .trim()
    .replace(TRAILING_FILLER, "")
    .replace(/[\s,;:!?.]+$/, "")
    .trim();
}

/** A person's name: up to three words, cut at the first comma, without filler. */
function cleanName(text: string): string | undefined {
  const name = cleanObject(text.split(",")[0] ?? "");
  return /^[\p{L}][\p{L}'.-]*(?:\s+[\p{L}][\p{L}'.-]*){0,2}$/u.test(name) && !/^(?:not|a|an|the|just)\b/i.test(name)
    ? capitalize(name)
    : undefined;
}

/** Splits off a trailing date expression ("call mom by Friday") and resolves it. */
function splitTrailingDate(text: string, currentDate: string): { rest: string; deadline: string | null } {
  const match = TRAILING_DATE.exec(text);
  const deadline = match?.[1] ? resolveDateExpression(match[1], currentDate) : undefined;
  return match && deadline ? { rest: text.slice(0, match.index).trim(), deadline } : { rest: text, deadline: null };
}

/** A topic word for titles ("Drink preference"), from the concept table. */
function topic(text: string, exclude: readonly string[]): string | undefined {
  return conceptsOf(text).find((concept) => !exclude.includes(concept));
}

const SENTENCE_BREAK =
  /(?<!\b(?:jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|mr|mrs|ms|dr|st|vs|etc))[.!?;]+(?=\s|$)|\n+/i;
const CLAUSE_BREAK = /,?\s+(?:and|but)\s+(?=(?:my|i|im)\b)/i;

/** Sentences and "… and my/I …" clauses, as verbatim (trimmed) excerpts of `text`. */
function splitClauses(text: string): string[] {
  return text
    .split(SENTENCE_BREAK)
    .flatMap((sentence) => sentence.split(CLAUSE_BREAK))
    .map((clause) => clause.trim())
    .filter((clause) => clause.length > 0);
}

// ---------------------------------------------------------------------------------------------
// Rules, tried in order (see recognise). Clauses reach them with straight apostrophes.
// ---------------------------------------------------------------------------------------------

const PREFERENCE_VERBS: Readonly<Record<string, string>> = {
  prefer: "Prefers",
  like: "Likes",
  love: "Loves",
  enjoy: "Enjoys",
  adore: "Adores",
};
/** How each goal verb of "I want to …", "I'd like to …", "I'm trying to …" leads the memory. */
const GOAL_LEADS: Readonly<Record<string, string>> = {
  want: "Wants",
  hope: "Hopes",
  plan: "Plans",
  intend: "Intends",
  aim: "Aims",
  "would like": "Would like",
  "'d like": "Would like",
  planning: "Plans",
  trying: "Is trying",
  hoping: "Hopes",
};

function preference(verb: string, object: string): Recognised | undefined {
  const thing = toThirdPerson(cleanObject(object));
  if (thing.length === 0 || VACUOUS_OBJECTS.test(thing)) return undefined;
  const about = topic(thing, ["preference", "aversion"]);
  const liked = verb !== "Dislikes";
  return {
    type: "preference",
    title: about ? `${capitalize(about)} ${liked ? "preference" : "dislike"}` : liked ? "Preference" : "Dislike",
    content: `${verb} ${thing}`,
    importance: 0.5,
  };
}

function task(description: string, currentDate: string, kind: "reminder" | "obligation"): Recognised | undefined {
  const { rest, deadline } = splitTrailingDate(cleanObject(description), currentDate);
  if (rest.length === 0 || (kind === "obligation" && deadline === null)) return undefined;
  const todo = toThirdPerson(rest);
  return {
    type: "actionable",
    title: capitalize(todo),
    content: deadline ? `Needs to ${todo} by ${deadline}` : `Needs to ${todo}`,
    importance: deadline ? 0.8 : 0.6,
    isActionable: true,
    deadline,
  };
}

const RULES: readonly Rule[] = [
  {
    pattern:
      /^(?:please\s+)?(?:(?:can|could|would|will) you\s+)?(?:please\s+)?remind me (?:to|that i (?:need|have) to)\s+(.+)$/i,
    build: (m, { currentDate }) => task(m[1] ?? "", currentDate, "reminder"),
  },
  {
    pattern: new RegExp(`^(?:i ${ADVERBS}(?:need|have|must|should|got)|i've got) to\\s+(.+)$`, "i"),
    build: (m, { currentDate }) => task(m[1] ?? "", currentDate, "obligation"),
  },
  {
    pattern: /^(?:i have|i've got) (an? .+)$/i,
    build: (m, { currentDate }) => {
      const { rest, deadline } = splitTrailingDate(cleanObject(m[1] ?? ""), currentDate);
      if (deadline === null) return undefined;
      const event = toThirdPerson(rest);
      return {
        type: "event",
        title: capitalize(event.replace(/^an? /i, "")),
        content: `Has ${event} on ${deadline}`,
        importance: 0.7,
        deadline,
      };
    },
  },
  {
    pattern: new RegExp(`^${I_AM} ${ADVERBS}(?:severely |very |highly |deathly )?allergic to\\s+(.+)$`, "i"),
    build: (m) => ({
      type: "fact",
      title: "Allergy",
      content: `Is allergic to ${toThirdPerson(cleanObject(m[1] ?? ""))}`,
      importance: 0.9,
    }),
  },
  {
    pattern: /^i have an? (.+?) allergy$/i,
    build: (m) => ({
      type: "fact",
      title: "Allergy",
      content: `Is allergic to ${cleanObject(m[1] ?? "")}`,
      importance: 0.9,
    }),
  },
  {
    pattern: new RegExp(
      `^${I_AM} ${ADVERBS}(?:a |an )?(vegetarian|vegan|pescatarian|lactose[- ]intolerant|gluten[- ]free|celiac|coeliac|diabetic)$`,
      "i",
    ),
    build: (m) => ({ type: "fact", title: "Diet", content: `Is ${(m[1] ?? "").toLowerCase()}`, importance: 0.8 }),
  },
  {
    pattern: new RegExp(`^i ${ADVERBS}(?:don't|do not|dont) ${ADVERBS}(?:like|enjoy|love)\\s+(.+)$`, "i"),
    build: (m) => preference("Dislikes", m[1] ?? ""),
  },
  {
    pattern: new RegExp(`^i ${ADVERBS}(?:hate|dislike|detest|loathe|can't stand|cannot stand)\\s+(.+)$`, "i"),
    build: (m) => preference("Dislikes", m[1] ?? ""),
  },
  {
    pattern: new RegExp(`^i ${ADVERBS}(prefer|like|love|enjoy|adore)\\s+(.+)$`, "i"),
    build: (m) => preference(PREFERENCE_VERBS[(m[1] ?? "").toLowerCase()] ?? "Likes", m[2] ?? ""),
  },
  {
    pattern: new RegExp(`^${I_AM} (?:a |such a )?(?:big |huge |massive )?fan of\\s+(.+)$`, "i"),
    build: (m) => preference("Is a fan of", m[1] ?? ""),
  },
  {
    pattern: /^my (?:all[- ]time |absolute )?(?:favou?rite|fave) (.+?) (?:is|are)\s+(.+)$/i,
    build: (m) => {
      const thing = cleanObject(m[1] ?? "");
      const value = cleanObject(m[2] ?? "");
      if (thing.length === 0 || value.length === 0) return undefined;
      return {
        type: "preference",
        title: `Favorite ${thing}`,
        content: `Favorite ${thing} is ${toThirdPerson(value)}`,
        importance: 0.5,
      };
    },
  },
  {
    pattern: /^(.+?) (?:is|are) my (?:all[- ]time |absolute )?(?:favou?rite|fave) (.+)$/i,
    build: (m) => {
      const value = cleanObject(m[1] ?? "");
      const thing = cleanObject(m[2] ?? "");
      if (thing.length === 0 || value.length === 0 || VACUOUS_OBJECTS.test(value)) return undefined;
      return {
        type: "preference",
        title: `Favorite ${thing}`,
        content: `Favorite ${thing} is ${value}`,
        importance: 0.5,
      };
    },
  },
  {
    pattern: /^my (?:main |big |biggest |long[- ]term |new |current )?goal (?:for .+? )?is to\s+(.+)$/i,
    build: (m, { currentDate }) => goal("Goal is to", m[1] ?? "", currentDate),
  },
  {
    pattern: new RegExp(
      `^(?:i ${ADVERBS}(want|hope|plan|intend|aim|would like)|i('d like)|${I_AM} ${ADVERBS}(planning|trying|hoping))\\s+to\\s+(.+)$`,
      "i",
    ),
    build: (m, { currentDate }) => {
      const verb = (m[1] ?? m[2] ?? m[3] ?? "").toLowerCase();
      return goal(`${GOAL_LEADS[verb] ?? "Wants"} to`, m[4] ?? "", currentDate);
    },
  },
  {
    pattern: /^my ([\p{L} -]{1,30}?)'s name is\s+(.+)$/iu,
    build: (m) => relationName(m[1] ?? "", m[2] ?? ""),
  },
  {
    pattern: /^my ([\p{L} -]{1,30}?) is (?:called|named)\s+(.+)$/iu,
    build: (m) => relationName(m[1] ?? "", m[2] ?? ""),
  },
  {
    pattern: new RegExp(`^(?:my name is|call me|${I_AM} called)\\s+(.+)$`, "i"),
    build: (m) => {
      const name = cleanName(m[1] ?? "");
      return name ? { type: "personal", title: "Name", content: `Name is ${name}`, importance: 0.8 } : undefined;
    },
  },
  {
    pattern: /^i have an? ([\p{L}-]+) (?:named|called)\s+(.+)$/iu,
    build: (m) => {
      const name = cleanName(m[2] ?? "");
      const animal = (m[1] ?? "").toLowerCase();
      return name
        ? {
            type: "personal",
            title: `${capitalize(animal)}'s name`,
            content: `Has a ${animal} named ${name}`,
            importance: 0.6,
          }
        : undefined;
    },
  },
  {
    pattern: new RegExp(
      `^(?:i ${ADVERBS}(?:currently )?(?:live|reside)|${I_AM} (?:currently )?living) in\\s+(.+)$`,
      "i",
    ),
    build: (m) => place("Home", "Lives in", m[1] ?? ""),
  },
  {
    pattern: new RegExp(`^(?:${I_AM} (?:originally )?from|i come from)\\s+(.+)$`, "i"),
    build: (m) => place("Origin", "Is from", m[1] ?? ""),
  },
  {
    pattern: /^i (?:just |recently )?moved to\s+(.+)$/i,
    build: (m) => place("Recent move", "Moved to", m[1] ?? ""),
  },
  {
    pattern: new RegExp(`^(?:i ${ADVERBS}work|${I_AM} (?:working|employed)) (at|for|as)\\s+(.+)$`, "i"),
    build: (m) => {
      const as = (m[1] ?? "").toLowerCase() === "as";
      const what = toThirdPerson(cleanObject(m[2] ?? ""));
      if (what.length === 0) return undefined;
      return {
        type: "personal",
        title: as ? "Occupation" : "Workplace",
        content: `Works ${as ? "as" : "at"} ${what}`,
        importance: 0.7,
      };
    },
  },
  {
    pattern: /^my birthday is (?:on )?(.+)$/i,
    build: (m) => {
      const date = cleanObject(m[1] ?? "");
      return date
        ? { type: "personal", title: "Birthday", content: `Birthday is ${date}`, importance: 0.7 }
        : undefined;
    },
  },
  {
    pattern: new RegExp(`^${I_AM} (\\d{1,3}) (?:years old|yrs old|year old)$`, "i"),
    build: (m) => ({ type: "personal", title: "Age", content: `Is ${m[1]} years old`, importance: 0.5 }),
  },
  {
    pattern: new RegExp(`^${I_AM} (an? .+)$`, "i"),
    build: (m) => {
      const what = toThirdPerson(cleanObject(m[1] ?? ""));
      if (/^an? (?:bit|little|lot|kind|sort|fan|mess|big fan)\b/i.test(what) || what.split(/\s+/).length > 8)
        return undefined;
      return { type: "personal", title: "Self-description", content: `Is ${what}`, importance: 0.6, confidence: 0.7 };
    },
  },
];

function goal(lead: string, aim: string, currentDate: string): Recognised | undefined {
  const { rest, deadline } = splitTrailingDate(cleanObject(aim), currentDate);
  if (rest.length === 0 || CONVERSATIONAL_VERBS.test(rest)) return undefined;
  const about = topic(rest, ["goal"]);
  const target = toThirdPerson(rest);
  return {
    type: "goal",
    title: about ? `${capitalize(about)} goal` : "Goal",
    content: deadline ? `${lead} ${target} by ${deadline}` : `${lead} ${target}`,
    importance: 0.7,
    deadline,
  };
}

function relationName(relation: string, rawName: string): Recognised | undefined {
  const who = relation.trim().toLowerCase();
  const name = cleanName(rawName);
  if (!name || who.length === 0) return undefined;
  return {
    type: "personal",
    title: `${capitalize(who)}'s name`,
    content: `${capitalize(who)}'s name is ${name}`,
    importance: 0.7,
  };
}

function place(title: string, lead: string, rawPlace: string): Recognised | undefined {
  const where = toThirdPerson(cleanObject(rawPlace));
  return where.length > 0 ? { type: "personal", title, content: `${lead} ${where}`, importance: 0.7 } : undefined;
}

// ---------------------------------------------------------------------------------------------
// Entry points
// ---------------------------------------------------------------------------------------------

/** The first rule that both matches the clause and accepts what it captured. */
function recognise(clause: string, context: ClauseContext): Recognised | undefined {
  const statement = clause
    .replace(/’/g, "'")
    .replace(LEADING_FILLER, "")
    .replace(/[\s.!?]+$/, "");
  for (const rule of RULES) {
    const match = rule.pattern.exec(statement);
    const recognised = match ? rule.build(match, context) : undefined;
    if (recognised) return recognised;
  }
  return undefined;
}

function toCandidate(recognised: Recognised, clause: string): ExtractionCandidate {
  const tags = [recognised.type, ...conceptsOf(`${recognised.title} ${recognised.content}`)];
  return {
    title: clip(recognised.title, MAX_TITLE_CHARS),
    content: clip(recognised.content, MAX_CONTENT_CHARS),
    type: recognised.type,
    importance: recognised.importance,
    tags: [...new Set(tags)].slice(0, MAX_TAGS),
    confidence: recognised.confidence ?? 0.9,
    isActionable: recognised.isActionable ?? false,
    deadline: recognised.deadline ?? null,
    evidence: [{ role: "user", quote: clip(clause, MAX_QUOTE_CHARS) }],
  };
}

/**
 * Extracts memories from the user's message of an exchange: one candidate per recognised
 * clause, in order, without duplicates, at most 10. The assistant's message is never a source.
 */
export function extractMemoriesOffline(input: { currentDate: string; userMessage: string }): ExtractionResult {
  const seen = new Set<string>();
  const memories: ExtractionCandidate[] = [];
  for (const clause of splitClauses(input.userMessage)) {
    const recognised = recognise(clause, { currentDate: input.currentDate });
    if (!recognised || seen.has(recognised.content.toLowerCase())) continue;
    seen.add(recognised.content.toLowerCase());
    memories.push(toCandidate(recognised, clause));
    if (memories.length === MAX_MEMORIES) break;
  }
  return extractionResultSchema.parse({ memories });
}

function firstWords(text: string): string[] {
  return text
    .split(/\s+/)
    .map((word) => word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}'’]+$/gu, ""))
    .filter((word) => word.length > 0)
    .slice(0, MAX_TITLE_WORDS);
}

const GREETING =
  /^(?:(?:hi|hello|hey|hiya|yo|good (?:morning|afternoon|evening)|greetings|ok|okay|so|um+)(?:\s+there)?[\s,!.]*)+/i;
const REQUEST_OPENER = /^(?:(?:can|could|would|will) you(?: please)?|please|i (?:have a|got a) question[:,]?)\s+/i;

/**
 * A title from the first meaningful words of the conversation's first user message
 * (greetings and "can you…" openers dropped): at most 8 words and 100 characters.
 */
export function titleConversationOffline(messages: readonly ConversationMessage[]): TitleResult {
  const source =
    (messages.find((message) => message.role === "user" && message.content.trim()) ?? messages[0])?.content ?? "";
  const opening =
    source
      .trim()
      .replace(GREETING, "")
      .replace(REQUEST_OPENER, "")
      .split(/[.!?\n]/)[0] ?? "";
  const title = clip(capitalize(firstWords(opening).join(" ") || firstWords(source).join(" ")), 100);
  return titleSchema.parse({ title: title.length > 0 ? title : "New conversation" });
}
