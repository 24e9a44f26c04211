/**
 * Deterministic English text analysis shared by the offline embedder, the offline chat model
 * and the rule-based extractor: tokenising, light stemming, stopwords and a concept table.
 */

const STOPWORDS = new Set(
  `a about above after again all also am an and any are as at be been before being below between both but by
  can could did do does doing don done down during each either else ever every few for from further get got had
  has have having he her here hers herself him himself his how i if in into is it its itself just let lot may me
  might mine more most much must my myself no nor not now of off oh on once only or other our ours ourselves out
  over own please quite rather really same shall she should so some such than that the their theirs them
  themselves then there these they this those through to too under until up upon us very was we were what when
  where which while who whom whose why will with would yes yet you your yours yourself yourselves anything
  something thing things know tell remember recall think said say saying okay ok hey hi hello thanks thank
  i'm i've i'll i'd don't doesn't didn't won't isn't aren't wasn't weren't haven't you're you've we're
  they're`.split(/\s+/),
);

/**
 * Related words share one concept feature, so paraphrases overlap without a common word. Words match
 * through {@link stem}; one marked "=" matches only in exactly that form ("=called" is a name).
 */
const CONCEPT_GROUPS: Readonly<Record<string, string>> = {
  preference: "like love enjoy prefer preference favorite favourite fave fond fan adore",
  aversion: "dislike hate loathe detest avoid",
  family:
    "family sister brother sibling mother father mom mum mommy dad daddy parent son daughter child children kid grandma grandmother grandpa grandfather aunt uncle cousin niece nephew",
  partner: "wife husband partner spouse girlfriend boyfriend fiance fiancee married wedding",
  friend: "friend buddy pal bestie roommate neighbor neighbour",
  name: "name nickname =called =named",
  work: "job work career employer employ office company boss colleague coworker manager profession occupation workplace salary promotion",
  todo: "task todo errand chore assignment deadline due remind reminder overdue need",
  schedule: "meeting appointment schedule calendar event agenda",
  home: "live home house apartment flat city town move reside hometown address neighborhood",
  drink: "tea coffee drink beverage espresso latte matcha juice wine beer cocktail",
  food: "food eat meal cuisine dish cook cooking dinner lunch breakfast restaurant recipe snack",
  diet: "diet vegetarian vegan pescatarian gluten lactose keto allergic allergy intolerant peanut nut shellfish dairy",
  health: "health doctor medication medicine sick illness symptom hospital pain injury therapy therapist",
  fitness: "exercise workout gym run jog fitness yoga hike swim sport marathon cycling lift",
  goal: "goal want plan aim aspire aspiration hope try objective ambition intend dream resolution",
  learning: "learn study course class school university college degree student exam lesson",
  language: "language spanish french german english italian japanese chinese mandarin korean portuguese fluent",
  pet: "pet dog cat puppy kitten bird fish hamster rabbit",
  music: "music song band guitar piano violin sing concert album playlist",
  reading: "book read novel author reading library",
  screen: "movie movies film cinema show series watch tv netflix anime",
  travel: "travel trip vacation holiday flight visit journey abroad tour",
  celebration: "birthday anniversary born celebrate party gift present",
  money: "money budget save saving spend finance pay debt invest rent",
  sleep: "sleep bed nap insomnia tired wake bedtime",
  mood: "stress stressed anxious anxiety worry nervous overwhelmed mood feel sad happy lonely",
  contact: "call phone email text message contact reply",
  hobby: "hobby pastime interest passion craft paint draw garden gardening photography",
  transport: "car drive commute bike bus subway train ride",
  color: "color colour",
  age: "age old young years",
};

export const CONCEPT_NAMES: readonly string[] = Object.keys(CONCEPT_GROUPS);

/** Lower-cases, normalises apostrophes, drops possessive 's, and splits into word tokens (≥ 2 chars or digits). */
export function tokenize(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/'s\b/g, "")
    .split(/[^a-z0-9']+/)
    .map((token) => token.replace(/^'+|'+$/g, ""))
    .filter((token) => token.length >= 2 || /^\d$/.test(token));
}

const DOUBLE_CONSONANT = /([b-df-hj-np-tv-z])\1$/;

function undouble(word: string): string {
  return DOUBLE_CONSONANT.test(word) && !/(ll|ss|zz)$/.test(word) ? word.slice(0, -1) : word;
}

/** A deliberately small suffix stripper (not Porter); words of three letters or fewer are left alone. */
export function stem(word: string): string {
  let w = word.replace(/'/g, "");
  if (w.length <= 3) return w;
  if (/ies$|ied$/.test(w)) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith("ing") && w.length >= 6) w = undouble(w.slice(0, -3));
  else if (w.endsWith("ed") && w.length >= 5) w = undouble(w.slice(0, -2));
  else if (w.endsWith("ly") && w.length >= 5) w = w.slice(0, -2);
  else if (/(ss|x|z|ch|sh)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith("s") && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  if (w.length > 3 && w.endsWith("e")) w = w.slice(0, -1);
  return w;
}

export function isStopword(token: string): boolean {
  return STOPWORDS.has(token);
}

const CONCEPT_ENTRIES = Object.entries(CONCEPT_GROUPS).flatMap(([concept, words]) =>
  words.split(" ").map((word) => ({ concept, exact: word.startsWith("="), word: word.replace(/^=/, "") })),
);
const CONCEPT_BY_EXACT_WORD: ReadonlyMap<string, string> = new Map(
  CONCEPT_ENTRIES.filter((entry) => entry.exact).map((entry) => [entry.word, entry.concept]),
);
const CONCEPT_BY_STEM: ReadonlyMap<string, string> = new Map(
  CONCEPT_ENTRIES.filter((entry) => !entry.exact).map((entry) => [stem(entry.word), entry.concept]),
);

export function conceptOf(token: string): string | undefined {
  return CONCEPT_BY_EXACT_WORD.get(token) ?? CONCEPT_BY_STEM.get(stem(token));
}

export function conceptsOf(text: string): string[] {
  const concepts = tokenize(text)
    .map(conceptOf)
    .filter((concept): concept is string => concept !== undefined);
  return [...new Set(concepts)];
}

export function contentTokens(text: string): string[] {
  return tokenize(text).filter((token) => !isStopword(token));
}

export function contentStems(text: string): Set<string> {
  return new Set(contentTokens(text).map(stem));
}
