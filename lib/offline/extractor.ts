/**
 * The offline model's rule-based memory extractor and conversation titler. It reads only the
 * user's own statements (never the assistant's, never questions or hypotheticals) and is meant to
 * be predictable rather than clever: anything no rule, slot (slot-reader.ts) or general statement
 * (statement-reader.ts) recognises yields no memory.
 */

import { MONTHS, WEEKDAYS } from "@/core/calendar";
import { textCostConfig } from "@/core/config";
import { capitalize, cutAtWhitespace, takeUnits, uncapitalize } from "@/core/text";
import type { MemoryType } from "@/db/schema";
import type { ConversationMessage } from "@/lib/memory/extraction/prompt";
import {
  type ExtractionCandidate,
  type ExtractionResult,
  extractionResultSchema,
} from "@/lib/memory/extraction/schema";
import { coordinatedStatements } from "./coordination";
import { DATE_EXPRESSION_SOURCE, resolveDateExpression } from "./date-expressions";
import { withoutOwnPossessive } from "./grammatical-person";
import { type Antecedents, resolveReferences, updateAntecedents } from "./reference";
import { readUserSlot, type SlotStatement, TEMPORARY, valueKind } from "./slot-reader";
import { readUserStatement } from "./statement-reader";
import { conceptsOf } from "./text-features";
import { aboutSomeoneElse, attributeClasses, CESSATION, CLASS_TITLES, RELATION_WORDS } from "./topic";

const MAX_MEMORIES = 10;
const MAX_TITLE_CHARS = 48;
const MAX_CONTENT_CHARS = 300;
const MAX_TAGS = 5;
const MAX_QUOTE_CHARS = 500;
const MAX_TITLE_WORDS = 8;

interface Recognised {
  type: MemoryType;
  title: string;
  content: string;
  importance: number;
  confidence?: number;
  isActionable?: boolean;
  deadline?: string | null;
  /** Read by the general statement reader (statement-reader.ts), not by a rule or a slot. */
  general?: boolean;
}

interface ClauseContext {
  currentDate: string;
  antecedents: Antecedents;
  /** The clause's whole sentence, normalised: cues of aspect that sit in another clause ("…, and I'm staying"). */
  sentence: string;
  /** The clause as written (its "now" is kept: "I'm in Kraków now"). */
  clause: string;
  /** The whole message, for a terse statement that leans on another sentence ("moved. halifax now."). */
  message: string;
}

interface Rule {
  pattern: RegExp;
  build: (match: RegExpExecArray, context: ClauseContext) => Recognised | undefined;
}

const NOT = "don't|do not|dont";
const DIETS = "vegetarian|vegan|pescatarian|lactose[- ]intolerant|gluten[- ]free|celiac|coeliac|diabetic";
const ADVERBS =
  "(?:(?:really|also|absolutely|actually|totally|just|do|still|definitely|truly|generally|usually|now|currently)\\s+)*";
const I_AM = "(?:i'm|i am|im)";
const TRAILING_FILLER =
  /(?:,?\s+(?:by the way|btw|though|too|as well|lol|haha|now|these days|nowadays|at the moment|currently|any ?more|after all|for now))+$/i;
const CORRECTION_TAIL = /,\s*(?:not|instead of|rather than)\s+[^,]*$/i;
const PAST_TIME = new RegExp(
  `\\s+(?:(?:last|this) (?:week|month|year|summer|spring|winter|fall|autumn|weekend)|over the (?:summer|winter|weekend|holidays)|(?:back )?(?:in|during) (?:${MONTHS.join("|")}|the (?:spring|summer|fall|autumn|winter)|\\d{4})|(?:a|one|two|three|a few|a couple of|several) (?:days?|weeks?|months?|years?) ago|yesterday|recently|earlier this (?:week|month|year)|on (?:${WEEKDAYS.join("|")}|the \\d{1,2}(?:st|nd|rd|th)?))$`,
  "i",
);
/** Read as if absent: "Honestly, …", "These days …", "Long term, …". */
const LEADING_FILLER =
  /^(?:(?:also|oh|btw|by the way|actually|so|well|and|but|hey|hi|hello|ok|okay|yeah|yes|fyi|just so you know|anyway|plus|these days|nowadays|currently|now|at the moment|(?:(?:a|one)\s+)?(?:(?:small|quick|minor|tiny|little)\s+)?(?:correction|update)(?:\s+for\s+(?:you|your notes|the record|your records))?|(?:it )?turns out(?: that)?|honestly|frankly|seriously|personally|truthfully|to be (?:honest|fair)|tbh|in all honesty|(?:this|next) (?:year|month|week|summer|spring|winter|fall|autumn)|long[- ]term|in the long (?:run|term))[,!:]?\s+)+/i;
/** Dropped before any rule reads it; "anymore" stays because it makes a negation. */
const STATEMENT_TAIL =
  /(?:,?\s+(?:just so you know|so you know|fyi|for the record|for what it's worth|btw|by the way|lol|haha|now|these days|nowadays|at the moment|currently))+$/i;
const TRAILING_DATE = new RegExp(
  `\\s+(?:(?:by|on|before|until|due|no later than)\\s+)?(${DATE_EXPRESSION_SOURCE})$`,
  "i",
);
const CONVERSATIONAL_VERBS =
  /^(?:know|ask|see|check|talk|chat|say|tell|understand|hear|discuss|share|clarify|confirm|make sure|find out|try this|be reminded)\b/i;
const VACUOUS_OBJECTS = /^(?:it|that|this|them|you|those|these|him|her|so much|a lot)\b/i;

function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max + 1);
  // At the last whitespace; a text with none in reach (one long word) is cut at `max` units.
  const cut = /\s/.test(head) ? head.replace(/\s+\S*$/, "") : "";
  return (cut.length > 0 ? cut : takeUnits(text, max)).trimEnd();
}

function cleanObject(text: string): string {
  return text
    .trim()
    .replace(CORRECTION_TAIL, "")
    .replace(/[\s,;:!?.]+$/, "")
    .replace(TRAILING_FILLER, "")
    .replace(/[\s,;:!?.]+$/, "")
    .trim();
}

function cleanName(text: string): string | undefined {
  const name = cleanObject(text.split(",")[0] ?? "");
  return /^[\p{L}][\p{L}'.-]*(?:\s+[\p{L}][\p{L}'.-]*){0,2}$/u.test(name) && !/^(?:not|a|an|the|just)\b/i.test(name)
    ? capitalize(name)
    : undefined;
}

function splitTrailingDate(text: string, currentDate: string): { rest: string; deadline: string | null } {
  const match = TRAILING_DATE.exec(text);
  const deadline = match?.[1] ? resolveDateExpression(match[1], currentDate) : undefined;
  return match && deadline ? { rest: text.slice(0, match.index).trim(), deadline } : { rest: text, deadline: null };
}

function topic(text: string, exclude: readonly string[]): string | undefined {
  return conceptsOf(text).find((concept) => !exclude.includes(concept));
}

/** A sentence's end (kept, to tell questions); abbreviations such as "Dec." do not end one. */
const SENTENCE_BREAK =
  /((?<!\b(?:jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|mr|mrs|ms|dr|st|vs|etc))(?:(?<!\b[a-z])\.|[!?;])[.!?;]*(?=\s|$)|\n+)/i;
/**
 * Each lookbehind scans back to the sentence's start, so a lookahead for the text it guards comes
 * first: the scan runs only where a break can be, not at every character.
 */
const ELIDED_CHANGE = "(?:got|sold|quit|left|gave up|found out|retired|joined|signed|swapped|bought|moved|started)";
const CLAUSE_BREAK = new RegExp(
  String.raw`(?=,?\s)(?<!^[\p{L}'-]+),?\s+(?:and|but|so)\s+(?:now\s+|then\s+)?(?=(?:my|i|im|we|we're|we’re|we've|we’ve)\b)|,\s+(?=(?:(?:and|so)\s+)?(?:that's|that is|which is|it's|it is)\s+where\b)|,\s+(?=(?:that's|that is|that was)\s+(?:my|our)\s)|\s+[—–-]+\s+|:\s+(?=(?:i|i'm|i’m|im|i've|i’ve|we|we're|we’re|we've|we’ve|my)\s)|(?=,)(?<=\S\s+\S+),\s+(?=(?:i|i'm|i’m|im|i've|i’ve|we|we're|we’re|we've|we’ve|my)\s)|,\s+(?=${ELIDED_CHANGE}\s)|(?=\s+and\s)(?<=^(?:[\p{L}']+,?\s+)?(?:i|i've|i’ve|we|we've|we’ve|\p{L}+ed|got|sold|quit|left)\s.*)\s+and\s+(?:then\s+)?(?=(?:(?:just|recently|finally)\s+)?(?:moved|relocated|started|turned|${ELIDED_CHANGE})\s)`,
  "iu",
);

type Mood = "statement" | "question" | "hypothetical";

const INTERROGATIVE_OPENING =
  /^(?:(?:what|what's|whats|where|where's|when|who|who's|whom|whose|why|which(?!\s+(?:is|was)\s+where\b)|how|how's)\b|(?:do|does|did|am|is|are|was|were|can|could|would|will|should|shall|have|has|had|may|might|must|isn't|aren't|don't|doesn't|didn't|won't|wouldn't|can't|couldn't|shouldn't)\s+(?:i|you|we|my|me|it|there|this|that)\b)/i;
/** "Had my 41st birthday yesterday": "have" as a diary statement's main verb, not an auxiliary. */
const MAIN_VERB_HAVE = /^(?:had|have|has)\s+(?:my|a|an|the|our)\s/i;
const PARTICIPLE =
  /\b(?:\p{L}{2,}(?:ed|en)|been|gone|done|come|seen|got|told|heard|left|made|found|said|sent|taken|given|kept|run|become|begun|brought|bought|thought|won|lost|met|paid|put|read|set|sold|spent)\b/iu;

function interrogativeOpening(statement: string): boolean {
  if (!INTERROGATIVE_OPENING.test(statement)) return false;
  return !MAIN_VERB_HAVE.test(statement) || PARTICIPLE.test(statement.replace(MAIN_VERB_HAVE, ""));
}

const HYPOTHETICAL_OPENING =
  /^(?:if|unless|suppose|supposing|imagine|imagining|assume|assuming|hypothetically|theoretically|in theory|pretend|say|what if|in case|even if|maybe|perhaps|let's (?:say|pretend|imagine|assume|suppose)|lets (?:say|pretend|imagine|assume|suppose))\b/i;
/** A condition anywhere in the sentence makes its statements conditional. */
const CONDITION = /\b(?:if|unless|in case|assuming)\b/i;
const HEDGE =
  /^(?:i (?:might|may|could|would)(?!\s+(?:like|love|prefer)\b)|i'd(?!\s+(?:like|love|prefer)\b|\s+(?:pick|choose|take|go for|have)\s.+\sover\s.+\s(?:any day|every time|hands down|any time)$)|i wonder|i'm (?:wondering|not sure|unsure)|i am (?:wondering|not sure|unsure))\b/i;
/** A request to be reminded is a task even when asked as a question ("Can you remind me to…?"). */
const REMINDER_REQUEST = /^(?:please\s+)?(?:(?:can|could|would|will) you\s+)?(?:please\s+)?remind me\b/i;
const INTERROGATIVE_VALUE = /^(?:what|which|who|whom|whose|where|when|why|how)\b/i;

/** What follows the frame is read as the statement, with its own mood ("I'd…" stays a hedge). */
const FRAME_OPENING =
  /^(?:(?:by|at|in|on|for|since|after|before|during|from|over|following|as of)\s+[^,]{1,30}?,?\s+|(?:found out|learned|learnt|discovered|realised|realized|noticed)(?:\s+that)?\s+|not\s+[^,]{1,40},\s*(?:actually,?\s+)?|(?:my|the|our)\s+\p{L}+(?:\s+\p{L}+)?\s+(?:says|said|thinks|confirmed|told me)(?:\s+that)?\s+)(?=(?:i|i'm|i've|i'd|we|we're|we've)\s)/iu;

function normaliseStatement(clause: string): string {
  return (
    clause
      .replace(/’/g, "'")
      .replace(LEADING_FILLER, "")
      .replace(/^\p{L}{3,}ly,\s+/u, "")
      .replace(FRAME_OPENING, "")
      .replace(
        /(\p{L})'s (become|been|gone|got|moved|emigrated|relocated|retired|joined|graduated|started|finished|quit|left)\b/gu,
        "$1 has $2",
      )
      .replace(/(\p{L})'s (due|over|done|finished)\b/gu, "$1 is $2")
      // A closing emoticon or kiss: ":)", "see you soon xx".
      .replace(/(?:\s*(?:[:;=]-?[)(DPp]+|<3)|\s+xx?)+\s*$/u, "")
      .replace(/[\s.!?]+$/, "")
      .replace(STATEMENT_TAIL, "")
      .replace(/[\s,;:]+$/, "")
  );
}

function sentenceMood(statement: string, end: string): Mood {
  if (REMINDER_REQUEST.test(statement)) return "statement";
  if (end.includes("?") || interrogativeOpening(statement)) return "question";
  if (HYPOTHETICAL_OPENING.test(statement) || CONDITION.test(statement)) return "hypothetical";
  return "statement";
}

function clauseMood(statement: string): Mood {
  if (REMINDER_REQUEST.test(statement)) return "statement";
  if (interrogativeOpening(statement)) return "question";
  if (HYPOTHETICAL_OPENING.test(statement) || HEDGE.test(statement)) return "hypothetical";
  return "statement";
}

interface Clause {
  clause: string;
  statement: string;
  mood: Mood;
  sentence: string;
  sentenceStatement: string;
}

/** A sentence's mood applies to all its clauses; a reminder request stays a statement. */
function splitClauses(text: string): Clause[] {
  const parts = text.split(SENTENCE_BREAK);
  const clauses: Clause[] = [];
  for (let i = 0; i < parts.length; i += 2) {
    // A sentence longer than the bound is read in pieces (each a sentence ending as this one does):
    // the rules' cost is quadratic in a sentence's length, so it stays linear in the message's.
    for (const sentence of cutAtWhitespace(parts[i] ?? "", textCostConfig.maxSentenceChars))
      clauses.push(...clausesOf(sentence, parts[i + 1] ?? ""));
  }
  return clauses;
}

function clausesOf(sentence: string, end: string): Clause[] {
  const sentenceStatement = normaliseStatement(sentence);
  const mood = sentenceMood(sentenceStatement, end);
  const clauses: Clause[] = [];
  for (const raw of sentence.split(CLAUSE_BREAK)) {
    const clause = raw?.trim() ?? "";
    if (clause.length === 0) continue;
    const statement = normaliseStatement(clause);
    const own = clauseMood(statement);
    const reminder = REMINDER_REQUEST.test(statement);
    clauses.push({
      clause,
      statement,
      mood: reminder ? "statement" : mood !== "statement" ? mood : own,
      sentence,
      sentenceStatement,
    });
  }
  return clauses;
}

const RELATION = `(?:(?:best|close|old|older|younger|little|big|baby|twin|eldest|oldest|youngest|step|ex|late|new)[- ]?)?(?:${RELATION_WORDS})`;
const THIRD_PARTY_PREDICATE =
  /^(?:(?:just|recently|also|really|still|now|currently|finally|always|never)\s+)*(?:is|are|was|were|'s|lives|live|works|work|loves|love|likes|like|hates|hate|enjoys|enjoy|prefers|prefer|adores|wants|want|has|have|had|studies|study|moved|relocated|turn(?:s|ed) \d+|plays|play|speaks|speak|owns|teaches|runs|dislikes|can't stand|doesn't like|does not like|don't like|got|became|started|goes|drives|uses|needs|plans|hopes|just|went|began|left|quit|took|made|won|lost|bought|sold|met|grew|gave|\p{L}+ed)\b/iu;
const NAME = /^,?\s*(\p{Lu}[\p{L}'-]*(?:\s+\p{Lu}[\p{L}'-]*)?),?\s+(.+)$/u;

const PREFERENCE_VERBS: Readonly<Record<string, string>> = {
  prefer: "Prefers",
  like: "Likes",
  love: "Loves",
  enjoy: "Enjoys",
  adore: "Adores",
};
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

const REASON_TAIL = /\s+(?:ever since|since|because|'cause|cause|due to|now that|but)\s+.*$/i;

function preference(verb: string, object: string): Recognised | undefined {
  const thing = cleanObject(cleanObject(object).replace(REASON_TAIL, ""));
  if (thing.length === 0 || VACUOUS_OBJECTS.test(thing)) return undefined;
  const about = topic(thing, ["preference", "aversion"]);
  return {
    type: "preference",
    // Likes and dislikes of one topic share its title ("Drink preference"), so a change of attitude
    // ("I don't like coffee anymore") finds the memory it contradicts; the content says which.
    title: about ? `${capitalize(about)} preference` : "Preference",
    content: `${verb} ${thing}`,
    importance: 0.5,
  };
}

function task(description: string, currentDate: string, kind: "reminder" | "obligation"): Recognised | undefined {
  const { rest, deadline } = splitTrailingDate(cleanObject(description), currentDate);
  if (rest.length === 0 || (kind === "obligation" && deadline === null)) return undefined;
  const todo = withoutOwnPossessive(rest);
  return {
    type: "actionable",
    title: capitalize(todo),
    content: deadline ? `Needs to ${todo} by ${deadline}` : `Needs to ${todo}`,
    importance: deadline ? 0.8 : 0.6,
    isActionable: true,
    deadline,
  };
}

const NOW_CUE = /\bnow\b/i;
const MOMENT_NOW = /\b(?:right|just|for|until|till|as of) now\b/i;
const TRAVEL =
  /\b(?:landed|arrived|arriving|flew|flying|fly|layover|stopover|passing through|back tomorrow|back on|(?:heading|going|coming|back) home|home on)\b/i;
const NAME_SOURCE = String.raw`\p{Lu}[\p{L}'.-]*(?:\s+\p{Lu}[\p{L}'.-]*){0,2}`;
const SINCE_LONG = new RegExp(
  String.raw`^(?:the\s+)?(?:spring|summer|autumn|fall|winter|new year|christmas|easter)\b|^(?:(?:early|late|mid)\s+)?(?:${MONTHS.join("|")})\b|^\d{4}\b|^last (?:year|spring|summer|autumn|fall|winter)\b|^(?:i|we) (?:moved|left|relocated|got married)\b`,
  "i",
);
const MEDICATION =
  /\b(?:tablets?|pills?|meds|medication|medicines?|statins?|insulin|antidepressants?|inhalers?|steroids?|blockers?|patch(?:es)?|injections?|thinners?)\b/i;
/** A workplace named by its kind, when the word vectors cannot type the name ("Brightwell Academy"). */
const WORKPLACE_NAME =
  /\b(?:school|college|university|academy|hospital|clinic|bank|agency|studio|council|library|ltd|inc|plc|llc|gmbh|group|labs?|partners|consulting|solutions|systems|technologies)\b/i;
const CORRECTION =
  /^you(?:'ve| have)?\s+(?:got|put|have|had|listed|noted|written|recorded)\s+me\s+(?:down\s+)?as\s+(living in|based in|working (?:at|for)|(?:being\s+)?(?:an?\s+)?)(.+?),?\s+but\s+(?:it's|it is|i'm|i am|it was)\s+(?:actually\s+|really\s+)?(.+)$/i;
const JOB_ENDED =
  /\b(?:handed in my notice|quit my job|left my job|resigned|was made redundant|got made redundant|was laid off|got laid off|walked away from|retired from|lost my job|packed in my job)\b/i;
/** Someone moved the user up a rank, so the role is not where (a floor, an office) but what. */
const NOT_A_ROLE = /\b(?:office|branch|floor|site|building|desk|team|department|front|top|queue|list|room)\b/i;

const CHANGE_RULES: readonly Rule[] = [
  {
    // Presence with "now" is a home: "I'm in Kraków now", "We're on Mallorca now, just outside Sóller",
    // "I'm now up in Leeds". Not "right now"/"for now", a trip ("…for a conference", "until Friday"),
    // travel ("just landed") or a name that reads as a company or a person.
    pattern: new RegExp(
      String.raw`^(?:[Ii]'m|[Ii]m|[Ii] am|[Ww]e're|[Ww]e are)\s+(?:now\s+)?(?:(?:down|up|over|out|back|still)\s+)?(?:in|on)\s+(${NAME_SOURCE})(?:\s+now)?(?:,\s*(?:just\s+)?(?:outside|near|by|in)\s+[^,]+)?$`,
      "u",
    ),
    build: (m, { clause, sentence }) => {
      const where = m[1] ?? "";
      if (!NOW_CUE.test(clause) || MOMENT_NOW.test(clause) || TEMPORARY.test(sentence) || TRAVEL.test(sentence))
        return undefined;
      if (["organisation", "person"].includes(valueKind(where))) return undefined;
      return place("Home", "Lives in", where);
    },
  },
  {
    // A demonym after a dwelling: "We closed on a house in Raleigh, so we're officially North
    // Carolinians", "Got the keys to a flat in Leeds: I'm now a Leeds resident" — the place is the
    // dwelling's (reference.ts); a demonym alone ("I'm officially a Londoner") names no place here.
    pattern:
      /^(?:i (?:guess|suppose|reckon)\s+)?(?:we're|we are|i'm|i am)\s+(?:now\s+)?officially\s+(?:an?\s+)?([\p{L}]+(?:\s+[\p{L}]+)?)$/iu,
    build: (m, { antecedents, sentence }) => {
      const demonym = m[1] ?? "";
      if (!/^\p{Lu}/u.test(demonym) || !/(?:ans?|ers?|ites?|ese|m[ae]n)$/.test(demonym) || !antecedents.dwelling)
        return undefined;
      if (TEMPORARY.test(sentence)) return undefined;
      return place("Home", "Lives in", antecedents.dwelling);
    },
  },
  {
    // A terse update: "moved. halifax now." — a bare place with "now", in a message that says the
    // user moved (not "haven't moved"). The name must read as a place (it may be written in lower case).
    pattern: /^(\p{L}[\p{L}'.-]*(?:\s+\p{L}[\p{L}'.-]*){0,2})$/u,
    build: (m, { clause, message }) => {
      const where = m[1] ?? "";
      if (!NOW_CUE.test(clause) || MOMENT_NOW.test(clause)) return undefined;
      if (
        // "moved." or "moved house", not "moved the sofa".
        !/\b(?:moved|relocated|emigrated)\b(?!\s+(?:the|my|a|an|our|some|it|them|this|that|his|her|their)\b)/i.test(
          message,
        ) ||
        /(?:\bnot|\bnever|n't)\s+(?:\S+\s+)?moved\b/i.test(message)
      )
        return undefined;
      if (valueKind(where) !== "place") return undefined;
      return place(
        "Home",
        "Lives in",
        where.replace(/(^|\s)(\p{Ll})/gu, (_w, space: string, c: string) => `${space}${c.toUpperCase()}`),
      );
    },
  },
  {
    // "Been down in Exeter since the summer", "I've been in Lyon since March": presence for a season or
    // more is a home; "since Monday" or "since lunch" is a stay.
    pattern: new RegExp(
      String.raw`^(?:(?:[Ii]'ve|[Ii] have|[Ww]e've|[Ww]e have)\s+)?[Bb]een\s+(?:(?:down|up|over|out|back|living|based|settled)\s+)?in\s+(${NAME_SOURCE})\s+since\s+(.+)$`,
      "u",
    ),
    build: (m, { sentence }) => {
      const where = m[1] ?? "";
      if (!SINCE_LONG.test(m[2] ?? "") || TEMPORARY.test(sentence) || TRAVEL.test(sentence)) return undefined;
      if (["organisation", "person"].includes(valueKind(where))) return undefined;
      return place("Home", "Lives in", where);
    },
  },
  {
    // A correction of what the assistant holds: "You've got me down as living in Basel, but it's Bern",
    // "You have me down as working at Volvo, but it's Ericsson", "…as a teacher, but I'm a nurse". Read
    // on the whole sentence (its "but I'm …" is a clause of its own) from either clause.
    pattern: /^(?:you\b.*\bme\s+(?:down\s+)?as\b|i'm\b|i am\b|it's\b|it is\b)/i,
    build: (_match, { sentence }) => {
      const m = CORRECTION.exec(sentence);
      if (!m) return undefined;
      const slot = (m[1] ?? "").toLowerCase();
      const value = cleanObject(m[3] ?? "");
      if (!value || value.split(/\s+/).length > 5) return undefined;
      const named = /^\p{Lu}/u.test(value) && valueKind(value) !== "person";
      if (/^(?:living|based)/.test(slot)) return named ? place("Home", "Lives in", value) : undefined;
      if (slot.startsWith("working")) return named ? work("at", value, false) : undefined;
      if (/\ban?\s*$/.test(slot) || /^an?\s/i.test(value))
        return work("as", /^an?\s/i.test(value) ? value : `a ${value}`, false);
      const kind = valueKind(value);
      return kind === "place"
        ? place("Home", "Lives in", value)
        : kind === "organisation"
          ? work("at", value, false)
          : undefined;
    },
  },
  {
    pattern:
      /^(?:it's|it is)\s+(?:actually\s+)?(.+?)\s+(?:that\s+)?(?:i|we)\s+(work (?:for|at|with)|live in|(?:'re|are|'m|am) based in)(?:,?\s*(?:not|rather than|instead of)\s+.+)?$/i,
    build: (m) => {
      const value = cleanObject(m[1] ?? "");
      if (!value || value.split(/\s+/).length > 4 || VACUOUS_OBJECTS.test(value)) return undefined;
      return /^work/i.test(m[2] ?? "") ? work("at", value, false) : place("Home", "Lives in", value);
    },
  },
  {
    // Terse job news: "new job at roche as of monday", "New role: data analyst", "Got a new job with
    // Acme". Never with a modal ("a new job at Roche would be nice").
    pattern:
      /^(?:(?:a|my|got an?|i(?:'ve| have)? got an?|i have an?)\s+)?new\s+(?:job|role|position|gig)\s*(?::|\bat\b|\bwith\b)\s*(.+?)(?:\s+(?:as of|from|starting(?: on)?|since|(?:last|this)\s+\w+|on\s+\w+day)\b.*)?$/i,
    build: (m, { sentence }) => {
      if (/\b(?:would|could|might|may|will|maybe|hope|wish|want|if)\b/i.test(sentence)) return undefined;
      const value = cleanObject(m[1] ?? "");
      if (!value || value.split(/\s+/).length > 5 || value.includes(",")) return undefined;
      // "New job: none yet", "My new job at Google starts soon": no value, or a job still to come.
      if (
        /^(?:none|nothing|no|not|tbd|tbc|still|the weekend)\b|\b(?:starts?|begins?|is|was|soon|next|tomorrow)\b/i.test(
          value,
        )
      )
        return undefined;
      if (/^an?\s/i.test(value)) return work("as", value, false);
      return ["place", "person"].includes(valueKind(value)) ? undefined : work("at", value, false);
    },
  },
  {
    // "I started at Google on Monday", "Started at Brightwell Academy last week": the name must read
    // as an organisation or name a workplace ("I started at Pilates", "at Oxford" are not jobs).
    pattern: new RegExp(
      String.raw`^(?:[Ii](?:'ve| have)?\s+)?(?:(?:just|finally|officially)\s+)?[Ss]tarted\s+at\s+(${NAME_SOURCE})(?:\s+(?:on|last|this|in|yesterday|today|earlier|a)\b.*)?$`,
      "u",
    ),
    build: (m) => {
      const where = m[1] ?? "";
      return valueKind(where) === "organisation" || WORKPLACE_NAME.test(where) ? work("at", where, false) : undefined;
    },
  },
  {
    // A promotion said by its doer: "They moved me up to store manager at Boots over the summer",
    // "Acme promoted me to head of design" → the new role. Not a place ("moved me to the Leeds office").
    pattern:
      /^(?:they|my (?:boss|manager|company|employer)|work|\p{Lu}[\p{L}&'.-]*(?:\s+\p{Lu}[\p{L}&'.-]*){0,2})\s+(?:(?:moved|bumped)\s+me\s+up|promoted\s+me)\s+to\s+(?:be\s+)?(?:an?\s+|the\s+)?([^,;]+)/u,
    build: (m) => {
      const [role = "", org] = (m[1] ?? "")
        .replace(/\s+(?:over|last|this|in|on|after|back in|from)\s+.*$/i, "")
        .split(/\s+(?:at|with|for)\s+/i);
      const what = role.trim();
      if (!what || what.split(/\s+/).length > 4 || NOT_A_ROLE.test(what) || valueKind(what) === "place")
        return undefined;
      return work("as", org ? `${what} at ${org.trim()}` : what, false);
    },
  },
  {
    pattern:
      /^i(?:'d| would)\s+(?:pick|choose|take|go for|have)\s+(.+?)\s+over\s+(.+?)\s+(?:any day|every time|hands down|any time)$/i,
    build: (m) => preference("Prefers", `${cleanObject(m[1] ?? "")} over ${cleanObject(m[2] ?? "")}`),
  },
  {
    pattern:
      /^(?:i(?:'ve| have)?\s+)?(?:switched|changed|transferred)\s+(?:my\s+)?(?:allegiances?|loyalt(?:y|ies)|sides|teams|clubs)\s+(?:from\s+.+?\s+)?to\s+(.+)$/i,
    build: (m) =>
      preference(
        "Now supports",
        (m[1] ?? "").replace(/\s+(?:this|last|at the|for the)\s+\p{L}+$/u, "").replace(PAST_TIME, ""),
      ),
  },
  {
    pattern: /^(\p{Lu}[\p{L}'-]+)(?:'s|\s+is)\s+(?:now\s+)?my\s+(husband|wife|spouse|fianc[ée]e?)$/u,
    build: (m) => {
      const engaged = /^fianc/i.test(m[2] ?? "");
      return {
        type: "personal",
        title: "Relationship status",
        content: `Is ${engaged ? "engaged" : "married"} to ${m[1]}`,
        importance: 0.7,
      };
    },
  },
  {
    pattern: /^(?:[Mm]y\s+)?(?:(?:[Mm]ain|[Bb]ig)\s+)?(?:goal|Goal)(?:\s+(?:for|this)\s+([^:]{1,25}))?:\s*(\p{Ll}.+)$/u,
    // A goal for the day is a to-do, not a goal: "Goal for today: survive".
    build: (m, { currentDate }) =>
      /^(?:not|no|none|nothing|dunno|undecided|tbd|unsure|still)\b/i.test(m[2] ?? "") ||
      /^(?:the\s+)?(?:today|tonight|morning|afternoon|evening|day|weekend)\b/i.test(m[1] ?? "")
        ? undefined
        : goal("Goal is to", m[2] ?? "", currentDate),
  },
  {
    pattern: /^(.+?)\s+(?:is|are)\s+(?:non-negotiable|a non-negotiable|a must|sacred)\s+(?:for|to)\s+me$/i,
    build: (m) =>
      preference(
        "Insists on",
        sentenceCaseThing(m[1] ?? "").replace(/^\p{Lu}(?=\p{Ll}+ing\b)/u, (c) => c.toLowerCase()),
      ),
  },
  {
    pattern:
      /^(?:.+?(?:\s+has|'s|\s+have)\s+taken\s+me\s+off|.+?\s+took\s+me\s+off|i(?:'ve| have)?\s+(?:come|came|gone|went)\s+off)\s+(.+)$/i,
    build: (m) => {
      const what = cleanObject(m[1] ?? "").replace(/^(?:my|the)\s+/i, "");
      // "…taken me off the dog's tablets" is someone else's medication.
      return MEDICATION.test(what) && !/'s\b/.test(what)
        ? { type: "fact", title: "Medication", content: `No longer takes ${what}`, importance: 0.8 }
        : undefined;
    },
  },
];

const RULES: readonly Rule[] = [
  ...CHANGE_RULES,
  {
    pattern:
      /^(?:(?:please\s+)?(?:(?:can|could|would|will) you\s+)?(?:please\s+)?remind me (?:to|that i (?:need|have) to)|(?:please\s+)?(?:don't|do not|dont) let me forget to)\s+(.+)$/i,
    build: (m, { currentDate }) => task(m[1] ?? "", currentDate, "reminder"),
  },
  {
    pattern: new RegExp(`^(?:i ${ADVERBS}(?:(?:need|have|got) to|must|should)|i've got to)\\s+(.+)$`, "i"),
    build: (m, { currentDate }) => task(m[1] ?? "", currentDate, "obligation"),
  },
  {
    pattern: /^(?:i have|i've got) (an? .+)$/i,
    build: (m, { currentDate }) => {
      const { rest, deadline } = splitTrailingDate(cleanObject(m[1] ?? ""), currentDate);
      if (deadline === null) return undefined;
      const event = withoutOwnPossessive(rest);
      return {
        type: "event",
        title: capitalize(event.replace(/^an? /i, "")),
        content: `Has ${event} on ${deadline}`,
        importance: 0.7,
        deadline,
      };
    },
  },
  // Negations of a state: what consolidation needs to supersede "Lives in Lisbon", "Is vegetarian"…
  {
    pattern: new RegExp(
      `^(?:i (?:${NOT}) (?:live|reside)|i no longer (?:live|reside)|${I_AM} (?:not|no longer) living) in\\s+(.+)$`,
      "i",
    ),
    build: (m) => place("Home", "No longer lives in", m[1] ?? ""),
  },
  {
    pattern: new RegExp(
      `^(?:i (?:${NOT}) work|i no longer work|${I_AM} (?:not|no longer) (?:working|employed)) (at|for|as)\\s+(.+)$`,
      "i",
    ),
    build: (m) => work(m[1] ?? "", m[2] ?? "", true),
  },
  {
    pattern: new RegExp(`^${I_AM} (?:not|no longer) ${ADVERBS}allergic to\\s+(.+)$`, "i"),
    build: (m) => {
      const what = cleanObject(m[1] ?? "");
      return what
        ? { type: "fact", title: "Allergy", content: `Is not allergic to ${what}`, importance: 0.8 }
        : undefined;
    },
  },
  {
    pattern: new RegExp(`^${I_AM} (not|no longer) (?:a |an )?(${DIETS})( any ?more)?$`, "i"),
    // "I'm not diabetic" without "anymore" is a correction ("Is not diabetic"), not an end.
    build: (m, { clause }) => ({
      type: "fact",
      title: "Diet",
      content: `${(m[1] ?? "").toLowerCase() === "not" && !m[3] && !/\bany ?more\b|\bnow\b/i.test(clause) ? "Is not" : "Is no longer"} ${(m[2] ?? "").toLowerCase()}`,
      importance: 0.8,
    }),
  },
  // Fans: "I'm a Lakers fan" is "Is a fan of Lakers", like "I'm a fan of the Lakers"; "I'm not a fan
  // of X" is a dislike; "no longer"/"anymore" is the negation that supersedes "Is a fan of X".
  {
    pattern: new RegExp(
      `^${I_AM} (not|no longer) ${ADVERBS}(?:a |an |much of a |really a )?(?:big |huge |massive |great )?fan of\\s+(.+?)(\\s+any ?more)?$`,
      "i",
    ),
    build: (m) =>
      (m[1] ?? "").toLowerCase() === "not" && !m[3]
        ? preference("Dislikes", m[2] ?? "")
        : preference("Is no longer a fan of", m[2] ?? ""),
  },
  {
    pattern: new RegExp(
      `^${I_AM} (not |no longer )?(?:a |an )?(?:big |huge |massive |great |die-?hard |lifelong )?((?:the )?[\\p{L}\\d'&.-]+(?: [\\p{L}\\d'&.-]+){0,3}) fan(?:\\s+(any ?more))?$`,
      "iu",
    ),
    build: (m) => preference(m[1] || m[3] ? "Is no longer a fan of" : "Is a fan of", m[2] ?? ""),
  },
  {
    pattern: new RegExp(`^${I_AM} (?:no longer (an? .+)|not (an? .+?) any ?more)$`, "i"),
    build: (m) => {
      const what = cleanObject(m[1] ?? m[2] ?? "");
      if (what.split(/\s+/).length > 6) return undefined;
      return { type: "personal", title: "Self-description", content: `Is no longer ${what}`, importance: 0.6 };
    },
  },
  {
    pattern: new RegExp(`^${I_AM} ${ADVERBS}(?:severely |very |highly |deathly )?allergic to\\s+(.+)$`, "i"),
    build: (m) => ({
      type: "fact",
      title: "Allergy",
      content: `Is allergic to ${cleanObject(m[1] ?? "")}`,
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
    pattern: new RegExp(`^${I_AM} ${ADVERBS}(?:a |an )?(${DIETS})$`, "i"),
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
        content: `Favorite ${thing} is ${value}`,
        importance: 0.5,
      };
    },
  },
  {
    // A correction of a favourite through "it": "Alien isn't my favourite film anymore, it's Arrival
    // now", "My favourite colour used to be blue, now it's green" — "it" is the favourite just named.
    pattern:
      /^(?:.+? (?:isn't|is not|is no longer|aren't|are not|are no longer|was|used to be) my (?:all[- ]time |absolute )?(?:favou?rite|fave) (.+?)|my (?:all[- ]time |absolute )?(?:favou?rite|fave) (.+?) (?:isn't|is not|is no longer|was|used to be) .+?)(?: any ?more)?,\s*(?:(?:but|and|so)\s+)?(?:now\s+)?(?:it's|it is|they're|they are)\s+(.+)$/i,
    // Only a change says "it" is the favourite: without "anymore", "no longer", "used to be", "was" or
    // "now it's", "it" is the thing ("Arrival isn't my favourite film, it's too slow").
    build: (m) =>
      /\b(?:any ?more|no longer|used to be|was|now (?:it's|it is|they're|they are))\b/i.test(m[0])
        ? favourite(m[1] ?? m[2] ?? "", m[3] ?? "")
        : undefined,
  },
  {
    // A comparison the user makes for themselves: "Tea wins over coffee for me", "Cats beat dogs in
    // my book". Without "for me" (or the like) it is a claim about the world ("Madrid beat Porto").
    pattern:
      /^(.+?) (?:wins? (?:out )?over|beats?|trumps?|(?:is|are) better than|(?:is|are) nicer than|over) .+? (?:for me|to me|in my book|in my opinion|in my view|personally|every time|any day|all day)(?: any day| every time)?$/i,
    build: (m) =>
      // "…moved me up to store manager over the summer, so no more … for me": "over" a time is no comparison.
      /\bover (?:the )?(?:summer|winter|spring|autumn|fall|weekend|holidays?|years?|months?|past|last|christmas|easter|break)\b/i.test(
        m[0],
      ) || /^(?:they|he|she|i|we|you)\s/i.test(m[1] ?? "")
        ? undefined
        : preference("Prefers", sentenceCaseThing(m[1] ?? "")),
  },
  {
    // Idioms of liking: "Nothing beats a cold lemonade", "There's nothing like a good book". Not "You
    // can't beat …", as often said of a deal ("the price") as of a taste.
    pattern:
      /^(?:nothing (?:really |quite )?(?:beats|compares to|tops|comes close to)|there's nothing (?:quite |else )?like|there is nothing (?:quite |else )?like)\s+(.+)$/i,
    build: (m) => (/^(?:me|us|him|her)\b/i.test((m[1] ?? "").trim()) ? undefined : preference("Loves", m[1] ?? "")),
  },
  {
    pattern:
      /^(.+?) (?:is|are|has become|have become|became|is now|are now) my (?:new )?(?:all[- ]time |absolute )?(?:favou?rite|fave) (.+)$/i,
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
    pattern: new RegExp(`^my (${RELATION})'s\\s+([\\p{L} -]{1,40}? (?:is|are) .+)$`, "iu"),
    build: (m) => {
      const rest = cleanObject(m[2] ?? "");
      return rest
        ? {
            type: "personal",
            title: `${capitalize((m[1] ?? "").toLowerCase())}'s ${rest.split(/ (?:is|are) /)[0]}`,
            content: `${capitalize((m[1] ?? "").toLowerCase())}'s ${rest}`,
            importance: 0.6,
          }
        : undefined;
    },
  },
  {
    pattern: new RegExp(`^(?:my|our) (${RELATION})\\b(.+)$`, "i"),
    build: (m) => thirdParty(m[1] ?? "", m[2] ?? ""),
  },
  {
    pattern: /^(Dad|Mum|Mom|Grandma|Grandpa|Nan|Gran)\s+(.+)$/u,
    build: (m) => thirdParty(m[1] ?? "", m[2] ?? ""),
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
      `^(?:(?:i|we) ${ADVERBS}(?:currently )?(?:live|reside)|(?:${I_AM}|we're|we are) (?:currently )?living) in\\s+(.+)$`,
      "i",
    ),
    build: (m) => place("Home", "Lives in", m[1] ?? ""),
  },
  {
    pattern: new RegExp(`^(?:${I_AM} (?:originally )?from|i come from)\\s+(.+)$`, "i"),
    build: (m) => place("Origin", "Is from", m[1] ?? ""),
  },
  {
    pattern:
      /^(?:(?:i|we)(?:'ve| have)? )?(?:(?:just|recently|finally|now|also|officially)\s+)*(?:moved|relocated)(?: (?:back|house|over))?(?: from (.+?))? (?:in)?to\s+(?:(?:a|an|the|my)\s+(?:(?:new|small|nice|bigger|tiny)\s+)*(?:apartment|flat|house|place|home|condo|studio)\s+in\s+)?(.+)$/i,
    build: (m) => place("Home", "Lives in", cleanObject((m[2] ?? "").replace(PLACE_TAIL, "")).replace(PAST_TIME, "")),
  },
  {
    // A move still to come is a plan, not where the user lives.
    pattern: new RegExp(`^${I_AM} ${ADVERBS}(?:moving|relocating) (?:back )?to\\s+(.+)$`, "i"),
    build: (m, { currentDate }) => goal("Plans to", `move to ${m[1] ?? ""}`, currentDate),
  },
  {
    pattern: new RegExp(`^(?:i ${ADVERBS}work|${I_AM} ${ADVERBS}(?:working|employed)) (at|for|as)\\s+(.+)$`, "i"),
    build: (m) => work(m[1] ?? "", m[2] ?? "", false),
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
    pattern: new RegExp(
      `^(?:i(?:'ve| have)? )?${ADVERBS}(?:started|began|begun) (?:(?:(?:a|my|the) )?(?:new )?(?:job|role|position)|working) (at|with|for|as)\\s+(.+)$`,
      "i",
    ),
    build: (m) =>
      work((m[1] ?? "").toLowerCase() === "as" ? "as" : "at", cleanObject(m[2] ?? "").replace(PAST_TIME, ""), false),
  },
  {
    pattern: new RegExp(
      `^(?:i(?:'ve| have)? )?${ADVERBS}(?:recently\\s+)?turned (\\d{1,3})(?: years? old)?(?:\\s+(?:today|yesterday|last (?:week|month)|this (?:week|month|year)|on \\w+))?$`,
      "i",
    ),
    build: (m) => ({ type: "personal", title: "Age", content: `Is ${m[1]} years old`, importance: 0.5 }),
  },
  {
    pattern: new RegExp(
      `^${I_AM} (\\d{1,3})(?: (?:years old|yrs old|year old))?(?: now)?(?:,(?!\\s*(?:i|i'm|my)\\b).*)?$`,
      "i",
    ),
    build: (m) => ({ type: "personal", title: "Age", content: `Is ${m[1]} years old`, importance: 0.5 }),
  },
  {
    pattern: new RegExp(`^${I_AM} (an? .+)$`, "i"),
    build: (m) => {
      const what = cleanObject(m[1] ?? "");
      if (/^an? (?:bit|little|lot|kind|sort|fan|mess|big fan)\b/i.test(what) || what.split(/\s+/).length > 8)
        return undefined;
      return { type: "personal", title: "Self-description", content: `Is ${what}`, importance: 0.6, confidence: 0.7 };
    },
  },
];

/**
 * What cannot be a favourite's value after "it's": a participle ("it's changed a lot": "it has"), a
 * degree word ("it's too slow"), a negation, or a place or time ("it's on YouTube now").
 */
const NOT_A_VALUE =
  /^(?:\p{Ll}{3,}ed\b|(?:been|gone|got|become|not|too|so|very|really|quite|pretty|a bit|kind of|sort of|on|in|at|from|with|for|by|about|still|also)\b)/u;

function favourite(rawThing: string, rawValue: string): Recognised | undefined {
  const thing = cleanObject(rawThing);
  const value = cleanObject(rawValue);
  if (thing.length === 0 || value.length === 0 || VACUOUS_OBJECTS.test(value) || NOT_A_VALUE.test(value))
    return undefined;
  return { type: "preference", title: `Favorite ${thing}`, content: `Favorite ${thing} is ${value}`, importance: 0.5 };
}

function sentenceCaseThing(text: string): string {
  const thing = text.trim();
  return /^\p{Lu}\p{Ll}/u.test(thing) && valueKind(thing) === "unknown" ? uncapitalize(thing) : thing;
}

function goal(lead: string, aim: string, currentDate: string): Recognised | undefined {
  const { rest, deadline } = splitTrailingDate(cleanObject(aim), currentDate);
  if (rest.length === 0 || CONVERSATIONAL_VERBS.test(rest)) return undefined;
  const about = topic(rest, ["goal"]);
  const target = rest;
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

const PLACE_TAIL =
  /,\s*(?:and\s+|but\s+|so\s+)?(?:the|my|our|it|it's|its|i|i'm|we|we're|they|they're|he|she|which|where|who|this|that)\b.*$/i;

function place(title: string, lead: string, rawPlace: string): Recognised | undefined {
  // How long is not where: "in Dubai for the next couple of years" → "Dubai".
  const where = cleanObject(
    rawPlace.replace(PLACE_TAIL, "").replace(/\s+for (?:the )?(?:next|coming|foreseeable|past|last)\b.*$/i, ""),
  );
  return where.length > 0 ? { type: "personal", title, content: `${lead} ${where}`, importance: 0.7 } : undefined;
}

function work(preposition: string, rawWhat: string, negated: boolean): Recognised | undefined {
  const as = preposition.toLowerCase() === "as";
  const what = cleanObject(rawWhat);
  if (what.length === 0) return undefined;
  return {
    type: "personal",
    title: as ? "Occupation" : "Workplace",
    content: `${negated ? "No longer works" : "Works"} ${as ? "as" : "at"} ${what}`,
    importance: 0.7,
  };
}

/**
 * A fact about someone else: "My sister Maya lives in Lisbon" → "Sister Maya lives in Lisbon",
 * "My mom is allergic to cats" → "Mom is allergic to cats". Stored about that person (the user's
 * own slots — "Lives in …", "Is allergic to …" — are never written for it).
 */
function thirdParty(rawRelation: string, rest: string): Recognised | undefined {
  const relation = rawRelation.toLowerCase();
  const named = NAME.exec(rest.trim());
  const name = named && !THIRD_PARTY_PREDICATE.test(named[1] ?? "") ? named[1] : undefined;
  const predicate = (name ? named?.[2] : rest.replace(/^,?\s*/, "")) ?? "";
  if (!THIRD_PARTY_PREDICATE.test(predicate)) return undefined;
  const what = cleanObject(predicate.replace(/^'s\b/, "is"));
  if (what.split(/\s+/).length < 2) return undefined;
  const who = `${capitalize(relation)}${name ? ` ${name}` : ""}`;
  return { type: "personal", title: who, content: `${who} ${what}`, importance: 0.6 };
}

function recognise(normalised: string, context: ClauseContext): Recognised | undefined {
  const statement = resolveReferences(normalised, context.antecedents);
  for (const rule of RULES) {
    const match = rule.pattern.exec(statement);
    // "I'm allergic to what again", "Which is my favorite city": a question word is no value.
    if (match?.slice(1).some((group) => group !== undefined && INTERROGATIVE_VALUE.test(group.trim()))) continue;
    const recognised = match ? rule.build(match, context) : undefined;
    if (!recognised) continue;
    // A self-description that names a single-valued attribute takes its title ("Is a Tallinn resident" → Home).
    // "Handed in my notice — I'm a full-time potter now": after the end of a job, "I'm a X now" is the occupation.
    if (
      recognised.title === "Self-description" &&
      /^Is an? /.test(recognised.content) &&
      NOW_CUE.test(context.clause) &&
      JOB_ENDED.test(context.message)
    )
      return work("as", recognised.content.replace(/^Is /, ""), false) ?? recognised;
    const attribute =
      recognised.title === "Self-description" ? [...attributeClasses(recognised.content)][0] : undefined;
    return attribute ? { ...recognised, title: CLASS_TITLES[attribute] } : recognised;
  }
  const slot = readUserSlot(statement, context.sentence);
  if (slot) return fromSlot(slot);
  // The general path: any other first-person statement, in the memory's person (statement-reader.ts).
  const general = readUserStatement(statement, context.sentence, context.currentDate);
  return general ? { ...general, general: true } : undefined;
}

function fromSlot(slot: SlotStatement): Recognised | undefined {
  switch (slot.slot) {
    case "home":
      return place("Home", slot.negated ? "No longer lives in" : "Lives in", slot.value);
    case "workplace":
      return work("at", slot.value, slot.negated);
    case "occupation":
      return /^retired\b/i.test(slot.value)
        ? { type: "personal", title: "Occupation", content: capitalize(slot.value), importance: 0.7 }
        : work("as", slot.value, slot.negated);
    case "age":
      return { type: "personal", title: "Age", content: `Is ${slot.value} years old`, importance: 0.5 };
    case "diet":
      if (slot.value === "eats meat") return { type: "fact", title: "Diet", content: "Eats meat", importance: 0.8 };
      return {
        type: "fact",
        title: "Diet",
        content: `${slot.negated ? "Is no longer" : "Is"} ${slot.value}`,
        importance: 0.8,
      };
    case "allergy":
      return { type: "fact", title: "Allergy", content: `Is not allergic to ${slot.value}`, importance: 0.8 };
    case "attitude":
      if (slot.preferred) return preference("Prefers", slot.value);
      if (slot.positive) return preference(slot.negated ? "No longer likes" : "Likes", slot.value);
      return slot.negated ? undefined : preference("Dislikes", slot.value);
  }
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

const SINGLE_VALUED_TITLES = new Set(["Home", "Workplace", "Occupation", "Diet", "Age"]);

/**
 * One slot, one value per message: "Moved out of Manchester — I live in Leeds now" says where the
 * user lives; the denial of the old home is dropped (the new value supersedes it anyway).
 */
function withoutReplacedDenials(memories: ExtractionCandidate[]): ExtractionCandidate[] {
  const stated = new Set(
    memories
      .filter((m) => SINGLE_VALUED_TITLES.has(m.title) && !/^(?:no longer|is no longer)\b/i.test(m.content))
      .map((m) => m.title),
  );
  const kept = memories.filter((m) => !(stated.has(m.title) && /^(?:no longer|is no longer)\b/i.test(m.content)));
  // The same in the user's own words: "Sold the Zurich flat" beside "…been in a chalet near Lucerne".
  const newValues = new Set(
    kept
      .filter((m) => !CESSATION.test(m.content) && !aboutSomeoneElse(m.content))
      .flatMap((m) => [...attributeClasses(m.content)]),
  );
  return kept.filter(
    (m) => !(CESSATION.test(m.content) && [...attributeClasses(m.content)].some((c) => newValues.has(c))),
  );
}

/**
 * Extracts memories from the user's message of an exchange: one candidate per recognised
 * statement clause (questions and hypotheticals are skipped), in order, without duplicates, at
 * most 10. The assistant's message is never a source.
 */
export function extractMemoriesOffline(input: { currentDate: string; userMessage: string }): ExtractionResult {
  const seen = new Set<string>();
  const memories: ExtractionCandidate[] = [];
  let antecedents: Antecedents = {};
  // The general path fills gaps: it reads a sentence only where no rule or slot read anything, and
  // its clauses of one sentence are one memory ("Sold the Corolla, I bike everywhere" → "Sold the
  // Corolla; bikes everywhere").
  const sentences: { sentence: string; ruled: boolean; items: { recognised: Recognised; clause: string }[] }[] = [];
  for (const { clause, statement, mood, sentence, sentenceStatement } of splitClauses(input.userMessage)) {
    const before = antecedents;
    antecedents = updateAntecedents(antecedents, statement);
    if (mood !== "statement") continue;
    const context: ClauseContext = {
      currentDate: input.currentDate,
      antecedents: before,
      sentence: sentenceStatement,
      clause,
      message: input.userMessage,
    };
    // "I'm vegetarian and allergic to peanuts": one statement per coordinated predicate, each one a rule or slot reads.
    const parts = coordinatedStatements(statement, (part) => {
      const read = recognise(part, context);
      return read !== undefined && !read.general;
    });
    for (const part of parts) {
      const recognised = recognise(part, context);
      if (!recognised) continue;
      let current = sentences.at(-1);
      if (current?.sentence !== sentence) {
        current = { sentence, ruled: false, items: [] };
        sentences.push(current);
      }
      current.ruled ||= !recognised.general;
      current.items.push({ recognised, clause });
    }
  }
  for (const { ruled, items } of sentences) {
    const kept = ruled ? items.filter((item) => !item.recognised.general) : items;
    let general: ExtractionCandidate | undefined;
    for (const { recognised, clause } of kept) {
      if (seen.has(recognised.content.toLowerCase()) || memories.length === MAX_MEMORIES) continue;
      seen.add(recognised.content.toLowerCase());
      if (general && recognised.general && !recognised.deadline && !general.deadline) {
        general.content = clip(
          `${general.content}; ${recognised.content.charAt(0).toLowerCase()}${recognised.content.slice(1)}`,
          MAX_CONTENT_CHARS,
        );
        general.evidence.push({ role: "user", quote: clip(clause, MAX_QUOTE_CHARS) });
        continue;
      }
      const candidate = toCandidate(recognised, clause);
      general = recognised.general ? candidate : undefined;
      memories.push(candidate);
    }
  }
  return extractionResultSchema.parse({ memories: withoutReplacedDenials(memories) });
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
export function titleConversationOffline(messages: readonly ConversationMessage[]): { title: string } {
  const source =
    (messages.find((message) => message.role === "user" && message.content.trim()) ?? messages[0])?.content ?? "";
  const opening =
    source
      .trim()
      .replace(GREETING, "")
      .replace(REQUEST_OPENER, "")
      .split(/[.!?\n]/)[0] ?? "";
  const title = clip(capitalize(firstWords(opening).join(" ") || firstWords(source).join(" ")), 100);
  return { title: title.length > 0 ? title : "New conversation" };
}
