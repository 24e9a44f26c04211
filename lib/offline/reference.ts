/**
 * References across the clauses of one message, for the offline extractor ("…but now I love them",
 * "that's where I live"). Antecedents update on every clause whatever its mood; a reference with no
 * fitting antecedent stays as is, and the quote a memory keeps is always the clause as written.
 */
import { MONTHS, WEEKDAYS } from "@/core/calendar";
import { valueKind } from "./slot-reader";

const CALENDAR = new RegExp(`^(?:${[...MONTHS, ...WEEKDAYS].join("|")}|christmas|easter)\\b`, "i");

export interface Antecedents {
  thing?: string;
  place?: string;
  dwelling?: string;
}

const ATTITUDE_OBJECT =
  /\b(?:like|likes|liked|liking|love|loves|loved|loving|hate|hates|hated|hating|dislike|dislikes|disliked|disliking|enjoy|enjoys|enjoyed|adore|adores|adored|detest|detested|loathe|loathed|can't stand|couldn't stand|could not stand|cannot stand)\s+([\p{L}][\p{L}' -]*)/iu;
const THING_END =
  /\s+(?:but|and|so|because|since|as|when|while|until|now|anymore|any more|again|though|too|at|in|on|for|back|growing|as a kid|these days)\b.*$/i;
const PRONOUN = /^(?:it|them|that|this|those|these|him|her|you|me|us|one|some|any|all|everything|anything|nothing)$/i;

const PLACE_NAME = /\b(?:to|in|into|from|near|outside)\s+(?:the\s+)?(\p{Lu}[\p{L}'-]*(?:\s+\p{Lu}[\p{L}'-]*){0,2})/gu;
const DWELLING =
  /\b(?:house|flat|apartment|condo|studio|home|place|cottage|bungalow|townhouse)\s+in\s+(\p{Lu}[\p{L}'-]*(?:\s+\p{Lu}[\p{L}'-]*){0,2})/u;

function isPlural(thing: string): boolean {
  const last = thing.split(/\s+/).at(-1) ?? "";
  return /[^s]s$/i.test(last) || /^(?:people|children|mice|geese|feet|teeth)$/i.test(last);
}

/** A name that may be a place: not typed as an organisation or a person by the word vectors. */
function placeLike(name: string): boolean {
  // "in October", "on Monday" are times, which the word vectors leave "unknown".
  if (CALENDAR.test(name)) return false;
  const kind = valueKind(name);
  return kind === "place" || kind === "unknown";
}

export function updateAntecedents(antecedents: Antecedents, statement: string): Antecedents {
  const next = { ...antecedents };
  const attitude = ATTITUDE_OBJECT.exec(statement);
  const thing = attitude?.[1]?.replace(THING_END, "").trim();
  if (thing && !PRONOUN.test(thing) && thing.split(/\s+/).length <= 4) next.thing = thing;
  for (const match of statement.matchAll(PLACE_NAME)) if (match[1] && placeLike(match[1])) next.place = match[1];
  const dwelling = DWELLING.exec(statement)?.[1];
  if (dwelling && placeLike(dwelling)) next.dwelling = dwelling;
  return next;
}

export function resolveReferences(statement: string, antecedents: Antecedents): string {
  let resolved = statement;
  const { thing, place, dwelling } = antecedents;
  if (thing) {
    // "…love them" / "…enjoy it": the pronoun must be the attitude's object, at the clause's end
    // or before a time or degree word ("I love them now", "I like it a lot").
    resolved = resolved.replace(
      /\b((?:like|likes|love|loves|enjoy|enjoys|adore|adores|hate|hates|dislike|dislikes|can't stand)\s+)(them|it)\b(?=\s*$|\s+(?:now|these days|nowadays|again|a lot|so much|too|any ?more)\b)/i,
      (whole, verb: string, pronoun: string) =>
        (pronoun.toLowerCase() === "them") === isPlural(thing) ? `${verb}${thing}` : whole,
    );
  }
  if (place) {
    resolved = resolved.replace(
      /^(?:so\s+|and\s+)?(?:that's|that is|this is|it's|it is|which is)\s+where\s+(.+)$/i,
      // "…where I'm living for the next two years" → "I'm living in Dubai for the next two years".
      (_whole, clause: string) => {
        const placed = clause.replace(/\b(live|lives|living|based|settled|staying)\b/i, `$1 in ${place}`);
        return placed !== clause ? placed : `${clause} in ${place}`;
      },
    );
    resolved = resolved.replace(
      /\b(live|lives|living|based|settled)\s+(?:in\s+(?:halls|digs|a\s+\p{L}+|the\s+\p{L}+)\s+)?(?:(?:up|down|over|out)\s+)?there\b/iu,
      (_whole, verb: string) => `${verb} in ${place}`,
    );
  }
  if (dwelling) {
    // "…and moved in on Saturday": into the dwelling named before (when, or how soon, is dropped).
    resolved = resolved.replace(/\b([Mm]oved) in\b(?!\s*(?:to|with)\b)(?!\s+\p{Lu}).*$/u, `$1 into ${dwelling}`);
  }
  return resolved;
}
