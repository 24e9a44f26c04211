/**
 * Answers in the extractor's canonical words, so consolidation reads one slot with one value.
 *
 * Word vectors type values but do not pick slots: measured on the offline asset, a verb's nearest
 * slot does not separate durable from passing states ("resettled" 0.60 from the residence words,
 * "stayed (at a) hotel" 0.69–0.74), so vector-picked slots would turn every trip into a move. Names
 * separate well: Glasgow 0.61 place / 0.09 organisation, Oracle 0.07 / 0.73.
 */

import { MONTHS, WEEKDAYS } from "@/core/calendar";
import { uncapitalize } from "@/core/text";
import { type WordVectors, wordVectors } from "./word-vectors";

export type UserSlot = "home" | "workplace" | "occupation" | "age" | "diet" | "allergy" | "attitude";

export interface SlotStatement {
  slot: UserSlot;
  value: string;
  negated: boolean;
  /** Before negation. */
  positive?: boolean;
  /** For attitudes: the value is preferred over another ("switched from coffee to tea"). */
  preferred?: boolean;
}

const PLACE_EXAMPLES =
  "london paris berlin tokyo chicago toronto sydney madrid rome boston dublin vienna amsterdam seattle melbourne moscow cairo mumbai lisbon prague city town country village";
const ORGANISATION_EXAMPLES =
  "google microsoft apple amazon ibm intel siemens toyota nokia facebook netflix samsung oracle boeing company corporation firm";
const PERSON_EXAMPLES = "john mary david sarah michael anna james emma peter laura";

export type ValueKind = "place" | "organisation" | "person" | "unknown";

interface Centroids {
  place: number[];
  organisation: number[];
  person: number[];
}

const centroidCache = new WeakMap<WordVectors, Centroids>();

function unitVector(vectors: WordVectors, words: readonly string[]): number[] | undefined {
  const sum = new Array<number>(vectors.dims).fill(0);
  let found = false;
  for (const word of words) {
    const row = vectors.indexOf(word);
    if (row === undefined) continue;
    const single = new Array<number>(vectors.dims).fill(0);
    vectors.addTo(single, row, 1);
    const norm = Math.hypot(...single);
    for (let d = 0; d < sum.length; d++) sum[d] = (sum[d] as number) + (single[d] as number) / norm;
    found = true;
  }
  if (!found) return undefined;
  const norm = Math.hypot(...sum);
  return sum.map((x) => x / norm);
}

function centroids(vectors: WordVectors): Centroids {
  let cached = centroidCache.get(vectors);
  if (!cached) {
    const of = (examples: string) => unitVector(vectors, examples.split(" ")) ?? [];
    cached = { place: of(PLACE_EXAMPLES), organisation: of(ORGANISATION_EXAMPLES), person: of(PERSON_EXAMPLES) };
    centroidCache.set(vectors, cached);
  }
  return cached;
}

const dot = (a: readonly number[], b: readonly number[]) => a.reduce((s, x, i) => s + x * (b[i] ?? 0), 0);

/** The least similarity to a kind's centroid, and the least lead over the next kind, to call a name that kind. */
const KIND_MIN = 0.2;
const KIND_MARGIN = 0.1;
const CALENDAR_WORDS = new Set<string>([...MONTHS, ...WEEKDAYS]);

/** Month and weekday names are never places. */
export function valueKind(name: string, vectors: WordVectors = wordVectors()): ValueKind {
  const words = name
    .toLowerCase()
    .split(/[\s-]+/)
    .filter((w) => !/^(?:the|of|and|&)$/.test(w));
  if (words.length === 0 || words.some((w) => CALENDAR_WORDS.has(w))) return "unknown";
  const vector = unitVector(vectors, words);
  if (!vector) return "unknown";
  const c = centroids(vectors);
  const scores: [ValueKind, number][] = [
    ["place", dot(vector, c.place)],
    ["organisation", dot(vector, c.organisation)],
    ["person", dot(vector, c.person)],
  ];
  scores.sort((a, b) => b[1] - a[1]);
  const [best, second] = scores as [[ValueKind, number], [ValueKind, number]];
  return best[1] >= KIND_MIN && best[1] - second[1] >= KIND_MARGIN ? best[0] : "unknown";
}

const IRREALIS =
  /\b(?:think|thinking|considering|consider|tempted|wish|wishing|hope|hoping|want|wanted|wants|plan|plans|planning|might|(?:i|we) may|could|would|should|someday|one day|maybe|perhaps|probably|whether|decide|deciding|undecided|dream|dreaming|once|gonna|going to|will|about to|soon|next|if|unless|in case|eventually|considered|debating|weighing|torn)\b|\b(?:i|we|you)'(?:d|ll)\b/i;
const HABITUAL_PAST = /\bused to\b/i;
/** A change that has not happened: "we haven't moved in yet", "I've yet to start at Google". */
const NOT_YET = /\b(?:not|never)\b[^,;]*\byet\b|n't\b[^,;]*\byet\b|\byet to\b/i;
const NEGATION = /\b(?:not|no longer|never|n't|isn't|aren't|don't|doesn't|didn't|wasn't)\b|n't\b/i;
const CESSATION =
  /\b(?:stopped|quit|left|gave up|given up|outgrew|outgrown|got over|retired|moved out of|moved away from|laid off|let go|fired|done with|no more)\b/i;

const PROPER_NAME = /\b((?!I\b)\p{Lu}[\p{L}\d'&.-]*(?:\s+(?:(?:of|de|la|del|and|&)\s+)?\p{Lu}[\p{L}\d'&.-]*){0,3})/u;
const ADVERB =
  /\b(?:now|still|just|finally|officially|already|recently|again|fully|completely|totally|really|also|properly)\s+/gi;
const USER_SUBJECT =
  /^(?:i|i'm|im|i am|i've|i have|i'd|we|we're|we are|we've|we have|our (?:family|household)|(?:(?:my|our)\s+)?(?:new\s+)?home|my (?:(?:new|current|own)\s+)*(?:home|address|employer|job|gig|role|position|work|workplace|company|age|diet|occupation|profession))\b/i;

/** A subjectless diary statement, the user implied: "Had my 41st birthday", "Celebrated turning 33", "Made the move". */
const DIARY_OPENING = /^(?:\p{L}+ed|had|made|got|went|became|began|hit|quit|left|took|swapped|spent)\s/iu;

const DIET_WORDS: Readonly<Record<string, string>> = {
  vegan: "vegan",
  "plant-based": "vegan",
  "plant based": "vegan",
  vegetarian: "vegetarian",
  veggie: "vegetarian",
  pescatarian: "pescatarian",
  pescetarian: "pescatarian",
  flexitarian: "flexitarian",
};
const BECOMING =
  /\b(?:am|'m|im|is|are|'re|became|become|becoming|went|gone|going|turned|switched to|been|being|stay|stayed|remain|remained)\b/i;

const RESIDENCE =
  /\b(?:live|lives|living|reside|resides|residing|moved|(?:the|a|my|our) move|relocated|resettled|settled|based|(?<!\b(?:fly|flying|flew|go|going|went|head|heading|come|coming|came|back|get|getting|got|drive|driving|drove|walk|walking|walked|way|ride|riding|rode|travel|travelling|traveling)\s)home|address|(?:my|our)\s+(?:new\s+|own\s+)*(?:house|flat|apartment|condo|place))\b/i;
/** A stay, not a home: "I'm in Paris for a conference", "We're in Lisbon for the weekend". */
export const TEMPORARY =
  /\b(?:for (?:a|the|an) (?:conference|meeting|weekend|week|few days|holiday|vacation|trip|night|day|visit|wedding|festival)|this (?:week|weekend)|on (?:holiday|vacation|a trip|business)|visiting|staying|trip|tonight|today|last night|until|till|as an investment|for (?:the|a|this|that) (?:project|contract|placement|secondment|assignment|course|tour|shoot|season|job))\b/i;
const MOVE_DENIED =
  /\b(?:never|not|didn't|haven't|hasn't|won't|can't)\s+(?:\S+\s+)?(?:moved|move|relocated|relocate|settled|settle)\b/i;
/** Being somewhere is a home only with a cue of permanence in its sentence ("for good") and no cue of a stay. */
const PRESENCE =
  /^(?:(?:i|we)\s+(?:ended up|wound up|landed|found (?:myself|ourselves))|i'm|im|i am|we're|we are)\s+in\s/i;
const PERMANENCE =
  /\b(?:for good|to stay|here to stay|staying put|(?:i'm|i am|we're|we are) (?:staying|not going anywhere|not leaving)$|permanently|for the foreseeable future|for the long haul|same (?:flat|house|apartment|place|address|home|street|neighbou?rhood) as (?:always|ever|before))\b/i;
/** Leaving a place for good: without one of these, "I left Madrid" may be a trip. */
const FOR_GOOD = /\b(?:for good|behind|permanently|forever|moved out of|moved away from)\b/i;
const EMPLOYMENT =
  /\b(?:work|works|working|job|employer|employed|hired|joined\b.*\bas\s+an?|joined (?:the )?(?:team|staff|company|firm) (?:at|of)|position|role|career|gig|(?:accepted|took) (?:an?|the) (?:job )?offer|laid off|let go|fired|retired|colleagues?|promoted)\b/i;

const ATTITUDE_POSITIVE =
  /\b(?:(?:grown|come|started|begun|learned|learnt) to (?:really )?)?(?:like|likes|love|loves|enjoy|enjoys|adore|adores|(?:am|'m|are|'re)\s+(?:not\s+|no longer\s+)?(?:really\s+)?into|fond of|crazy about|obsessed with|hooked on|can't get enough of|a fan of)\b/i;
const ATTITUDE_NEGATIVE =
  /\b(?:hate|hates|dislike|dislikes|detest|loathe|can't stand|cannot stand|sick of|tired of|fed up with|bored of|bored with|gone off|went off)\b/i;

function cleanValue(text: string): string {
  return text
    .replace(
      /\s+(?:now|these days|nowadays|anymore|any more|again|today|yesterday|for good|permanently|for me|completely|entirely|at all|either|as of .+|since .+|in (?:the )?(?:spring|summer|autumn|fall|winter|january|february|march|april|may|june|july|august|september|october|november|december|\d{4})\b.*|on (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b.*|last (?:week|month|year|summer|winter|spring|autumn|fall)|this (?:week|month|year)|after .+|with .+)$/i,
      "",
    )
    .replace(/^[\s,]+|[\s,.!?;:]+$/g, "")
    .trim();
}

function phraseAfter(statement: string, prepositions: string): string | undefined {
  const match = new RegExp(`\\b(?:${prepositions})\\s+((?:the\\s+)?[^,;—–]+)`, "i").exec(statement);
  if (!match?.[1]) return undefined;
  const value = cleanValue(match[1].split(/\s+(?:and|but|so|because|since|for|to|from)\s+/i)[0] ?? "");
  return value.length > 0 && value.split(/\s+/).length <= 6 ? value : undefined;
}

function properNameIn(text: string, from = 0): string | undefined {
  const match = PROPER_NAME.exec(text.slice(from));
  return match?.[1];
}

/** An ordinal birthday is the user's only after "my" ("my dad's 60th birthday" is not). */
const AGE_NUMBER =
  /\b(?:(?:turned|turning|hit|reached|age is|aged|i'm|im|i am)\s+(\d{1,3})\b(?!\s*(?:%|percent|kg|kilos?|lbs?|pounds|km|miles|steps|am|pm|o'clock|minutes|hours|euros?|dollars|k\b|[.:,]\d))|\bmy\s+(\d{1,3})(?:st|nd|rd|th)\s+birthday|(\d{1,3})\s+(?:years?|yrs)\s+old)/i;

function readAge(statement: string): SlotStatement | undefined {
  const number = AGE_NUMBER.exec(statement);
  const value = number?.[1] ?? number?.[2] ?? number?.[3];
  if (!value) return undefined;
  const age = Number(value);
  return age >= 1 && age <= 120 ? { slot: "age", value: String(age), negated: false } : undefined;
}

function readDiet(statement: string, negated: boolean): SlotStatement | undefined {
  // The first diet named, not one it is compared with or set against: "more pescatarian than vegan",
  // "vegetarian rather than vegan" name the diet the user keeps.
  const lower = statement
    .toLowerCase()
    .replace(/\b(?:than|rather than|instead of)\s+(?:an?\s+|fully\s+|strictly\s+)?[\p{L}-]+/gu, " ");
  const word = Object.keys(DIET_WORDS)
    .map((w) => [w, lower.search(new RegExp(`\\b${w}\\b`))] as const)
    .filter(([, at]) => at >= 0)
    .sort((x, y) => x[1] - y[1])[0]?.[0];
  if (word) {
    const before = lower.slice(0, lower.indexOf(word));
    if (!BECOMING.test(before) && !CESSATION.test(before)) return undefined;
    if (/\bmore\s*$/.test(before)) return { slot: "diet", value: DIET_WORDS[word] ?? word, negated: false };
    return { slot: "diet", value: DIET_WORDS[word] ?? word, negated: negated || CESSATION.test(before) };
  }
  // Eating meat again, or for the first time in years, ends a vegetarian or vegan diet.
  if (!negated && /\b(?:eat|eating|eats|back on)\s+meat\b/i.test(statement))
    return { slot: "diet", value: "eats meat", negated: false };
  return undefined;
}

function readHome(statement: string, negated: boolean, ceased: boolean, sentence: string): SlotStatement | undefined {
  if (TEMPORARY.test(statement) || MOVE_DENIED.test(statement)) return undefined;
  const swapped =
    /\b(?:left|swapped|traded|exchanged)\s+(\p{Lu}[\p{L}'-]*(?:\s+\p{Lu}[\p{L}'-]*)*)\s+for\s+(\p{Lu}[\p{L}'-]*(?:\s+\p{Lu}[\p{L}'-]*)*)/u.exec(
      statement,
    );
  if (!negated && swapped?.[1] && swapped[2] && valueKind(swapped[1]) === "place" && valueKind(swapped[2]) === "place")
    return { slot: "home", value: swapped[2], negated: false };
  const residence =
    RESIDENCE.test(statement) ||
    (PRESENCE.test(statement) && PERMANENCE.test(sentence) && !TEMPORARY.test(sentence.replace(PERMANENCE, "")));
  const fronted = /^(.+?)\s+is\s+(?:my\s+)?home\b/i.exec(statement) ?? /\bcalling\s+(.+?)\s+home\b/i.exec(statement);
  const place =
    (fronted?.[1] && valueKind(fronted[1]) === "place" ? fronted[1] : undefined) ??
    phraseAfter(statement, "in|to|into|out of|away from") ??
    (/\bleft\s+\p{Lu}/u.test(statement) ? properNameIn(statement, statement.search(/\bleft\s/i)) : undefined);
  if (!place) return undefined;
  const kind = valueKind(place);
  const named = /^\p{Lu}/u.test(place);
  // A named value must not read as an organisation ("lives in" one is not a home); many cities
  // are also given names ("Austin", "Victoria"), so a person's reading does not rule one out
  // after a residence word. Without one ("I'm still in Berlin") it must read as a place.
  if (named && kind === "organisation") return undefined;
  // Selling the home ends it: "We sold our flat in Lyon" is where the user no longer lives.
  if (named && /\bsold\s+(?:my|our|the)\s+(?:\S+\s+)?(?:house|flat|apartment|place|home|condo)\b/i.test(statement))
    return { slot: "home", value: cleanValue(place), negated: true };
  if (!residence && !(ceased && named && kind === "place")) return undefined;
  // A home is a named place ("in Brighton"), never a time or a thing ("moved in on Saturday").
  if (!named) return undefined;
  if (ceased && !FOR_GOOD.test(statement) && !/\bleft\s+\S+(?:\s+\S+)?\s+for\s+\p{Lu}/u.test(statement)) {
    if (!/\bmoved (?:out of|away from)\b/i.test(statement)) return undefined;
  }
  const leftFor = /\bleft\s+.+?\s+for\s+(\p{Lu}[\p{L}'-]*(?:\s+\p{Lu}[\p{L}'-]*)*)/u.exec(statement);
  if (leftFor?.[1] && valueKind(leftFor[1]) === "place") return { slot: "home", value: leftFor[1], negated: false };
  const where = cleanValue(place);
  return where ? { slot: "home", value: where, negated: negated || ceased } : undefined;
}

/** Activities anyone does at work ("writing", "managing") are not among them. */
const OCCUPATION_VERBS: readonly (readonly [string, string, string])[] = [
  ["teach", "teaching", "teacher"],
  ["tutor", "tutoring", "tutor"],
  ["lecture", "lecturing", "lecturer"],
  ["coach", "coaching", "coach"],
  ["nurse", "nursing", "nurse"],
  ["bartend", "bartending", "bartender"],
  ["consult", "consulting", "consultant"],
  ["freelance", "freelancing", "freelancer"],
  ["intern", "interning", "intern"],
  ["nanny", "nannying", "nanny"],
];
const OCCUPATION_VERB = new RegExp(
  `^(?:(?:i'm|im|i am)\\s+(${OCCUPATION_VERBS.map(([, ing]) => ing).join("|")})|i\\s+(${OCCUPATION_VERBS.map(([base]) => base).join("|")}))(?:\\s+(.+?))??\\s+(at|for|in)\\s+(.+)$`,
  "i",
);
const WORKPLACE_NOUN =
  /\b(?:school|college|university|academy|institute|hospital|clinic|practice|company|firm|startup|agency|bank|restaurant|caf[eé]|bar|pub|hotel|shop|store|library|nursery|kindergarten|gym|club|studio|charity|council|ministry|department|lab|laboratory|factory|bakery)s?\b/i;
const ONE_OFF =
  /\b(?:today|tonight|tomorrow|this (?:morning|afternoon|evening|week|weekend|month|summer|term)|on (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekend)s?|at weekends|for fun|as a hobby|for free|as a volunteer|voluntarily)\b/i;
const NOT_A_SUBJECT =
  /^(?:a|an|the|my|our|his|her|their|your|some|this|that|these|those|him|them|me|us|it|myself|ourselves|himself|herself|themselves|yourself|kids?|children|people)\b/i;
/** Someone else's place: "at my son's school" is where the son is, not where the user works. */
const SOMEONE_ELSES = /^(?:my|our|his|her|their)\s+[\p{L}-]+'s\b/iu;

/** What is taught is kept only when it is a bare subject ("maths"), never a person or a one-off. */
function readOccupationVerb(statement: string, negated: boolean): SlotStatement | undefined {
  const match = OCCUPATION_VERB.exec(statement);
  if (!match || negated || ONE_OFF.test(statement)) return undefined;
  const verb = (match[1] ?? match[2] ?? "").toLowerCase();
  const occupation = OCCUPATION_VERBS.find(([base, ing]) => verb === ing || verb === base)?.[2];
  const object = match[3]?.trim();
  const preposition = (match[4] ?? "").toLowerCase();
  const where = cleanValue(match[5] ?? "");
  if (!occupation || !where) return undefined;
  if (object && (NOT_A_SUBJECT.test(object) || object.split(/\s+/).length > 3)) return undefined;
  if (SOMEONE_ELSES.test(where)) return undefined;
  const named = /^\p{Lu}/u.test(where) && valueKind(where) === "organisation";
  if (!named && !WORKPLACE_NOUN.test(where)) return undefined;
  const what = `${object ? `${object} ` : ""}${occupation}`;
  return {
    slot: "occupation",
    value: `${/^[aeiou]/i.test(what) ? "an" : "a"} ${what} ${preposition} ${where}`,
    negated: false, // a negated statement returned above
  };
}

function readWork(statement: string, negated: boolean, ceased: boolean): SlotStatement | undefined {
  const byVerb = readOccupationVerb(statement, negated || ceased);
  if (byVerb) return byVerb;
  const employment = EMPLOYMENT.test(statement);
  const leftFor = /\b(?:left|quit)\s+(.+?)\s+for\s+(\p{Lu}[\p{L}\d'&.-]*(?:\s+\p{Lu}[\p{L}\d'&.-]*)*)/u.exec(statement);
  if (leftFor?.[1] && leftFor[2] && valueKind(leftFor[2]) !== "place" && valueKind(leftFor[1]) !== "place")
    return { slot: "workplace", value: cleanValue(leftFor[2]), negated: false };
  const occupation = /\b(?:is|as)\s+(an?\s+[^,;]+?)(?:\s+(?:at|for|with|in)\s+.+)?$/i.exec(statement);
  if (
    employment &&
    occupation?.[1] &&
    /\b(?:job|gig|role|position|work|occupation|profession|hired|joined)\b/i.test(statement)
  ) {
    const rest = statement.slice((occupation.index ?? 0) + occupation[0].indexOf(occupation[1]));
    const what = cleanValue(rest.split(/,/)[0] ?? "");
    if (/\bas\s+an?\b|\bis\s+as\b/i.test(statement) && !/\b(?:joined|hired)\b/i.test(statement))
      return what ? { slot: "occupation", value: what, negated: negated || ceased } : undefined;
  }
  const retired = /\bretired from\s+([a-z][\p{L} -]+)$/iu.exec(cleanValue(statement));
  if (retired?.[1]) return { slot: "occupation", value: `retired from ${retired[1].trim()}`, negated: false };

  const employer = /^my (?:(?:new|current)\s+)*employer is\s+(.+)$/i.exec(statement);
  const org =
    employer?.[1] ??
    (/\b(?:joined|quit|left)\s+\p{Lu}/u.test(statement)
      ? properNameIn(statement, statement.search(/\b(?:joined|quit|left)\s/i))
      : undefined) ??
    phraseAfter(statement, "at|for|with|from|joined|by");
  if (!org) return undefined;
  const named = /^\p{Lu}/u.test(org);
  const kind = named ? valueKind(org) : "unknown";
  if (kind === "place" || kind === "person") return undefined;
  const beingAt =
    named && kind === "organisation" && /^(?:i'm|im|i am)\s+(?:not\s+|no longer\s+)?at\b/i.test(statement);
  // "I quit Deloitte": ending something that reads as an organisation ends a job.
  const quitOrganisation = ceased && kind === "organisation";
  if (!employment && !beingAt && !quitOrganisation) return undefined;
  // "Retired now, after 31 years with Royal Mail": retiring ends the occupation, not only the employer.
  if (named && /^(?:i(?:'m| am| have| 've)?\s+)?retired\b/i.test(statement) && !negated)
    return { slot: "occupation", value: `retired from ${cleanValue(org)}`, negated: false };
  if (!named && !/^the\s/i.test(org)) return undefined;
  // "Quit" and "left" end employment only when what was left is an employer.
  const value = cleanValue(org);
  return value ? { slot: "workplace", value, negated: negated || ceased } : undefined;
}

function readAllergy(statement: string, ceased: boolean): SlotStatement | undefined {
  const allergy = /\b(?:my|the)\s+([\p{L}-]+(?:\s+[\p{L}-]+)?)\s+allergy\b/iu.exec(statement);
  return ceased && allergy?.[1] ? { slot: "allergy", value: allergy[1].toLowerCase(), negated: true } : undefined;
}

function readAttitude(statement: string, negated: boolean, ceased: boolean): SlotStatement | undefined {
  const positive = ATTITUDE_POSITIVE.exec(statement);
  const negative = ATTITUDE_NEGATIVE.exec(statement);
  const fronted =
    /^(.+?)\s+(?:just\s+)?(?:doesn't|does not|don't|do not|no longer)\s+(?:really\s+)?(?:interest|excite|appeal to)\s+me\b/i.exec(
      statement,
    ) ?? /^(.+?)\s+(?:is|are)(?:n't| not| no longer)\s+(?:something|a thing|stuff|what)\s+i\b/i.exec(statement);
  if (fronted?.[1]) {
    const first = cleanValue(fronted[1]);
    // The sentence's capital is not the thing's: "Cheese isn't something I enjoy" is about cheese.
    const thing = valueKind(first) === "unknown" ? uncapitalize(first) : first;
    return thing ? { slot: "attitude", value: thing, negated: true, positive: true } : undefined;
  }
  if (!/^(?:i|i'm|im|i am|i've|i have)\b/i.test(statement)) return undefined;
  const switched = /\b(?:switched|changed|moved on|converted|gone over)\s+from\s+(.+?)\s+to\s+(.+)$/i.exec(statement);
  if (switched?.[2] && !negated) {
    const thing = cleanValue(switched[2]);
    // "Switched from Lisbon to Porto" or "from SAP to Oracle" is not a taste.
    if (/^\p{Lu}/u.test(thing) && valueKind(thing) !== "unknown") return undefined;
    return thing ? { slot: "attitude", value: thing, negated: false, positive: true, preferred: true } : undefined;
  }
  const match = negative && (!positive || negative.index < positive.index) ? negative : positive;
  if (!match) return undefined;
  const thing = cleanValue(statement.slice(match.index + match[0].length));
  if (!thing || /^(?:it|that|this|them|you|those|these|him|her)\b/i.test(thing) || thing.split(/\s+/).length > 6)
    return undefined;
  return { slot: "attitude", value: thing, negated: negated || ceased, positive: match === positive };
}

/** `sentence` is the statement's whole sentence, for cues that sit in another clause ("…, and I'm staying"). */
export function readUserSlot(raw: string, rawSentence: string = raw): SlotStatement | undefined {
  const statement = raw.replace(ADVERB, "").replace(/\s+/g, " ").trim();
  const sentence = rawSentence.replace(ADVERB, "").replace(/\s+/g, " ").trim();
  if (
    !USER_SUBJECT.test(statement) &&
    !DIARY_OPENING.test(statement) &&
    !/^(.+?)\s+is\s+(?:my\s+)?home\b/i.test(statement)
  ) {
    if (!/^.+?\s+(?:doesn't|does not|don't|isn't|aren't|is not|are not)\b.*\b(?:me|i)\b/i.test(statement))
      return undefined;
  }
  if (IRREALIS.test(statement) || HABITUAL_PAST.test(statement) || NOT_YET.test(statement)) return undefined;
  // Idioms that hold a "not" without denying anything: "can't get enough of", "can't stand".
  const negated = NEGATION.test(statement.replace(/\b(?:can't|cannot|can not) (?:get enough of|stand)\b/gi, ""));
  const ceased = CESSATION.test(statement);
  return (
    readAge(statement) ??
    readDiet(statement, negated) ??
    readAllergy(statement, ceased) ??
    readAttitude(statement, negated, ceased) ??
    readWork(statement, negated, ceased) ??
    readHome(statement, negated, ceased, sentence)
  );
}
