/**
 * What a memory is about, for superseding by topic (consolidation.ts) when no canonical slot says
 * so. Word-vector similarity was measured for this and rejected: it ranks sister topics (coffee/tea
 * 0.77, guitar/piano 0.78) above one topic in two words (smoking/smoker 0.50).
 */

import { MONTHS } from "@/core/calendar";
import { valueKind } from "./slot-reader";
import { isStopword, stem } from "./text-features";

/** People (and pets) in the user's life: "my sister …" is someone else's statement, never the user's. */
export const RELATION_WORDS =
  "mother-in-law|father-in-law|in-laws|mother|mom|mum|mommy|father|dad|daddy|parents|sisters?|brothers?|siblings?|sons?|daughters?|kids?|children|child|wife|husband|partner|spouse|girlfriend|boyfriend|fianc[ée]e?|friends?|mates?|pals?|buddy|roommate|flatmate|housemate|neighbou?r|boss|manager|colleague|co-?worker|grandma|grandmother|grandpa|grandfather|grandparents|aunt|uncle|cousin|niece|nephew|teammate|classmate|therapist|doctor|dog|cat|puppy|kitten";

export type AttributeClass = "home" | "employer" | "role" | "relationship" | "diet";

const RELATION_START = new RegExp(
  `^(?:(?:best|close|old|older|younger|little|big|baby|twin|step|ex|late|new)[- ]?)?(?:${RELATION_WORDS})(?:'s)?\\b`,
  "i",
);

/** A memory about another person: it opens with a relation ("Sister Maya …", "Mum's …") or a person's name. */
export function aboutSomeoneElse(content: string): boolean {
  const text = content.trim();
  if (RELATION_START.test(text)) return true;
  const first = /^(\p{Lu}[\p{L}'-]+)\s+(?:\p{Lu}|is|was|has|had|lives|works|got|moved|\p{Ll}+s\b|\p{Ll}+ed\b)/u.exec(
    text,
  )?.[1];
  return first !== undefined && valueKind(first.replace(/'s$/, "")) === "person";
}

const DWELLING = /\b(?:flat|apartment|house|chalet|condo|cottage|studio|halls|bungalow|place)\b/i;
/** A dwelling the user does not live in: "a flat in Leeds as an investment", "a holiday cottage in Wales". */
const NOT_LIVED_IN =
  /\b(?:as an investment|investment (?:property|flat)|to (?:let|rent out)|buy-to-let|holiday (?:home|let|cottage|flat)|rental|for (?:my|our) (?:mum|mom|dad|parents|son|daughter|kids))\b/i;
const NAMED = /\b\p{Lu}[\p{L}'-]+/gu;
/** Shared titles, so the near-memory search finds one from the other. */
export const CLASS_TITLES: Readonly<Record<AttributeClass, string>> = {
  home: "Home",
  employer: "Workplace",
  role: "Occupation",
  relationship: "Relationship status",
  diet: "Diet",
};

export function attributeClasses(content: string): Set<AttributeClass> {
  const classes = new Set<AttributeClass>();
  const text = content.trim();
  const lower = text.toLowerCase();
  const places = [...text.matchAll(NAMED)].map((m) => m[0]).filter((w, i) => i > 0 && valueKind(w) === "place");
  if (
    /^(?:no longer )?lives in\b/.test(lower) ||
    (/\b(?:resident|relocated|moved|swapped|left|rent|rents|renting)\b/.test(lower) && places.length > 0) ||
    (DWELLING.test(lower) && places.length > 0 && !NOT_LIVED_IN.test(lower))
  )
    classes.add("home");
  const organisations = [...text.matchAll(NAMED)]
    .map((m) => m[0])
    .filter((w, i) => i > 0 && !["place", "person"].includes(valueKind(w)));
  if (
    /^(?:no longer )?works at\b/.test(lower) ||
    (/\b(?:signed with|joined|hired by|let go by|laid off by|fired by|employed by|made redundant (?:from|by|at)|redundant from)\b/.test(
      lower,
    ) &&
      organisations.length > 0)
  )
    classes.add("employer");
  if (/^(?:no longer )?works as\b|\bpromoted to\b|^(?:is )?retired\b/.test(lower)) classes.add("role");
  if (
    /\b(?:single|married|engaged|divorced|separated|widowed|split up|broke up|called it (?:a day|quits)|parted ways|girlfriend|boyfriend|fianc\p{L}*|dating|in a relationship)\b/u.test(
      lower,
    )
  )
    classes.add("relationship");
  if (/\b(?:vegan|vegetarian|pescatarian|flexitarian|plant-based|eats meat)\b/.test(lower)) classes.add("diet");
  return classes;
}

const CHANGE_CUE =
  /\b(?:no longer|any ?more|used to|quit|stopped|gave up|given up|sold|left|split up|broke up|divorced|retired|let go|laid off|fired|made redundant|became|become|switched|swapped|traded|cancell?ed|stolen|written off|called it (?:a day|quits)|parted ways|walked away|handed in|cut out|(?:is|'s|are) over|former|moved|promoted|got (?:married|engaged)|now)\b|\bex-/i;

export function hasChangeCue(content: string): boolean {
  return CHANGE_CUE.test(content);
}

const NOT_TOPICAL =
  /^(?:is|are|was|has|have|had|does|do|did|no|longer|not|any|more|anymore|now|lives|works|got|get|properly|really|also|still|just|last|this|week|month|year|spring|summer|autumn|fall|winter|quit|stopped|gave|sold|left|split|broke|retired|let|go|went|fired|became|become|switched|swapped|moved|over|former|up|down|thing|things|everywhere|always|never|used|plays|play|likes|loves|enjoys|prefers|dislikes|drinks|eats|owns|drives|uses|takes|makes|goes|named|called|full-time|part-time|old|new|since|ago)$/;

export function topicalWords(content: string): string[] {
  return content
    .toLowerCase()
    .replace(/[’]/g, "'")
    .split(/[^\p{L}\p{N}'-]+/u)
    .map((w) => w.replace(/'s$/, ""))
    .filter((w) => w.length > 1 && !isStopword(w) && !NOT_TOPICAL.test(w) && !/^\d/.test(w))
    .map((w) => (w.length > 3 && /[^s]s$/.test(w) ? w.slice(0, -1) : w));
}

const DERIVATION = /^(?:er|r|yer|ist|ian|ism|ing|or|ed)$/;

function root(word: string): string {
  return word.replace(/(?:ics?|ies|es|e|y)$/, "");
}

function sameWord(x: string, y: string): boolean {
  if (x === y) return true;
  if (root(x).length >= 5 && root(x) === root(y)) return true;
  const derives = (a: string, b: string) => {
    const base = stem(a);
    const rest = b.startsWith(base) ? b.slice(base.length).replace(/^e/, "") : undefined;
    return rest !== undefined && DERIVATION.test(rest) && (base.length >= 4 || /^(?:yer|ist|ian)$/.test(rest));
  };
  return derives(x, y) || derives(y, x);
}

export function sharedTopic(a: string, b: string): string | undefined {
  const right = topicalWords(b);
  for (const x of topicalWords(a)) if (right.some((y) => sameWord(x, y))) return x;
  return sharedAcronym(a, b) ?? sharedAcronym(b, a);
}

/** Three capitals or more, against the initials of as many consecutive capitalised words ("JLR"). */
function sharedAcronym(a: string, b: string): string | undefined {
  const names = [...b.matchAll(/\p{Lu}[\p{L}'-]*(?:\s+(?:of\s+)?\p{Lu}[\p{L}'-]*)+/gu)].map((m) =>
    m[0]
      .split(/\s+/)
      .filter((w) => w !== "of")
      .map((w) => w.charAt(0))
      .join(""),
  );
  for (const [acronym] of a.matchAll(/\b\p{Lu}{3,6}\b/gu))
    if (names.some((initials) => initials.includes(acronym))) return acronym.toLowerCase();
  return undefined;
}

/** With an object ("Stopped drinking coffee") it ends only what names that object, so none is returned. */
const ACTIVITY_ENDED = new RegExp(
  String.raw`^(?:has\s+|have\s+)?(?:quit|stopped|given up|gave up|no longer|(?:has|have)n't had an?)\s+(\p{L}+)(?:\s+(?:since|for (?:a|an|one|two|three|four|five|six|several|a few|\d+) (?:while|days?|weeks?|months?|years?)|after|last|this|(?:back\s+)?in\s+(?:${MONTHS.join("|")}|spring|summer|autumn|fall|winter|the (?:spring|summer|autumn|fall|winter)|\d{4}))\b.*)?$`,
  "iu",
);

export function endedActivity(content: string): string | undefined {
  const word = ACTIVITY_ENDED.exec(content.trim())?.[1];
  return word && !isStopword(word.toLowerCase()) ? stem(word.toLowerCase()) : undefined;
}

export function isActivity(content: string, activity: string): boolean {
  const verb = /^(?:still\s+|usually\s+|often\s+)?(\p{L}+)/iu.exec(content.trim())?.[1];
  return verb !== undefined && stem(verb.toLowerCase()) === activity;
}

/** True when every topical word of `b` is in `a`: the same value again ("Moved to Berlin" / "Lives in Berlin"). */
export function restates(a: string, b: string): boolean {
  const left = topicalWords(a);
  const right = topicalWords(b);
  return right.length > 0 && right.every((y) => left.some((x) => sameWord(x, y)));
}

/** The end of a state, rather than a new value: it must name what it ends. */
export const CESSATION =
  /\b(?:no longer|not|any ?more|quit|stopped|gave up|given up|sold|left|swapped|traded in|cancell?ed|stolen|written off|retired|split up|broke up|called it (?:a day|quits)|parted ways|divorced|let go|laid off|fired|made redundant|walked away|handed in|moved out|(?:is|'s|are) over)\b|n't\b/i;
