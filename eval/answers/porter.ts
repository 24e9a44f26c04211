/**
 * The Porter stemmer exactly as NLTK 3.8's `PorterStemmer()` runs it (NLTK_EXTENSIONS mode): LoCoMo's
 * token F1 stems with it, so a stemmer that differs on one word scores a different F1. A word is
 * handled as code points (Python's indexing). porter.test.ts pins output stemmed by NLTK itself.
 */

const IRREGULAR: ReadonlyMap<string, string> = new Map([
  ["sky", "sky"],
  ["skies", "sky"],
  ["dying", "die"],
  ["lying", "lie"],
  ["tying", "tie"],
  ["news", "news"],
  ["innings", "inning"],
  ["inning", "inning"],
  ["outings", "outing"],
  ["outing", "outing"],
  ["cannings", "canning"],
  ["canning", "canning"],
  ["howe", "howe"],
  ["proceed", "proceed"],
  ["exceed", "exceed"],
  ["succeed", "succeed"],
]);

const VOWELS = new Set(["a", "e", "i", "o", "u"]);

type Word = readonly string[];

function isConsonant(word: Word, i: number): boolean {
  const ch = word[i] ?? "";
  if (VOWELS.has(ch)) return false;
  if (ch === "y") return i === 0 ? true : !isConsonant(word, i - 1);
  return true;
}

function measure(word: Word): number {
  let m = 0;
  for (let i = 1; i < word.length; i++) if (!isConsonant(word, i - 1) && isConsonant(word, i)) m++;
  return m;
}

const positive = (stem: Word) => measure(stem) > 0;
const aboveOne = (stem: Word) => measure(stem) > 1;

function containsVowel(word: Word): boolean {
  return word.some((_, i) => !isConsonant(word, i));
}

function endsDoubleConsonant(word: Word): boolean {
  const n = word.length;
  return n >= 2 && word[n - 1] === word[n - 2] && isConsonant(word, n - 1);
}

/** *o, and NLTK's extension: a two-letter vowel-consonant word also counts. */
function endsCvc(word: Word): boolean {
  const n = word.length;
  return (
    (n >= 3 &&
      isConsonant(word, n - 3) &&
      !isConsonant(word, n - 2) &&
      isConsonant(word, n - 1) &&
      !["w", "x", "y"].includes(word[n - 1] ?? "")) ||
    (n === 2 && !isConsonant(word, 0) && isConsonant(word, 1))
  );
}

const endsWith = (word: Word, suffix: string) => word.join("").endsWith(suffix);
const chars = (text: string) => Array.from(text);
const without = (word: Word, suffix: string) => word.slice(0, word.length - chars(suffix).length);

type Rule = readonly [suffix: string, replacement: string, condition: ((stem: Word) => boolean) | null];

/** No later rule is tried once a suffix matches, whether or not its condition holds. */
function applyRules(word: Word, rules: readonly Rule[]): Word {
  for (const [suffix, replacement, condition] of rules) {
    if (!endsWith(word, suffix)) continue;
    const stem = without(word, suffix);
    return condition === null || condition(stem) ? [...stem, ...chars(replacement)] : word;
  }
  return word;
}

function step1a(word: Word): Word {
  if (word.length === 4 && endsWith(word, "ies")) return [...without(word, "ies"), "i", "e"];
  return applyRules(word, [
    ["sses", "ss", null],
    ["ies", "i", null],
    ["ss", "ss", null],
    ["s", "", null],
  ]);
}

function step1b(word: Word): Word {
  if (endsWith(word, "ied")) return [...without(word, "ied"), ...(word.length === 4 ? ["i", "e"] : ["i"])];
  if (endsWith(word, "eed")) {
    const stem = without(word, "eed");
    return measure(stem) > 0 ? [...stem, "e", "e"] : word;
  }
  const suffix = ["ed", "ing"].find((s) => endsWith(word, s) && containsVowel(without(word, s)));
  if (suffix === undefined) return word;
  const stem = without(word, suffix);
  if (endsWith(stem, "at") || endsWith(stem, "bl") || endsWith(stem, "iz")) return [...stem, "e"];
  if (endsDoubleConsonant(stem)) return ["l", "s", "z"].includes(stem.at(-1) ?? "") ? stem : stem.slice(0, -1);
  return measure(stem) === 1 && endsCvc(stem) ? [...stem, "e"] : stem;
}

function step1c(word: Word): Word {
  return applyRules(word, [["y", "i", (stem) => stem.length > 1 && isConsonant(stem, stem.length - 1)]]);
}

function step2(word: Word): Word {
  if (endsWith(word, "alli") && positive(without(word, "alli"))) return step2([...without(word, "alli"), "a", "l"]);
  return applyRules(word, [
    ["ational", "ate", positive],
    ["tional", "tion", positive],
    ["enci", "ence", positive],
    ["anci", "ance", positive],
    ["izer", "ize", positive],
    ["bli", "ble", positive],
    ["alli", "al", positive],
    ["entli", "ent", positive],
    ["eli", "e", positive],
    ["ousli", "ous", positive],
    ["ization", "ize", positive],
    ["ation", "ate", positive],
    ["ator", "ate", positive],
    ["alism", "al", positive],
    ["iveness", "ive", positive],
    ["fulness", "ful", positive],
    ["ousness", "ous", positive],
    ["aliti", "al", positive],
    ["iviti", "ive", positive],
    ["biliti", "ble", positive],
    ["fulli", "ful", positive],
    // The "l" stays with the stem: the condition is on the word without "ogi".
    ["logi", "log", () => positive(word.slice(0, -3))],
  ]);
}

function step3(word: Word): Word {
  return applyRules(word, [
    ["icate", "ic", positive],
    ["ative", "", positive],
    ["alize", "al", positive],
    ["iciti", "ic", positive],
    ["ical", "ic", positive],
    ["ful", "", positive],
    ["ness", "", positive],
  ]);
}

function step4(word: Word): Word {
  return applyRules(word, [
    ["al", "", aboveOne],
    ["ance", "", aboveOne],
    ["ence", "", aboveOne],
    ["er", "", aboveOne],
    ["ic", "", aboveOne],
    ["able", "", aboveOne],
    ["ible", "", aboveOne],
    ["ant", "", aboveOne],
    ["ement", "", aboveOne],
    ["ment", "", aboveOne],
    ["ent", "", aboveOne],
    ["ion", "", (stem) => aboveOne(stem) && ["s", "t"].includes(stem.at(-1) ?? "")],
    ["ou", "", aboveOne],
    ["ism", "", aboveOne],
    ["ate", "", aboveOne],
    ["iti", "", aboveOne],
    ["ous", "", aboveOne],
    ["ive", "", aboveOne],
    ["ize", "", aboveOne],
  ]);
}

/** Both conditions are tried for the final "e" (the paper's examples require it, as NLTK notes). */
function step5a(word: Word): Word {
  if (!endsWith(word, "e")) return word;
  const stem = word.slice(0, -1);
  const m = measure(stem);
  return m > 1 || (m === 1 && !endsCvc(stem)) ? stem : word;
}

function step5b(word: Word): Word {
  return applyRules(word, [["ll", "l", () => measure(word.slice(0, -1)) > 1]]);
}

export function porterStem(input: string): string {
  const lower = input.toLowerCase();
  const irregular = IRREGULAR.get(input);
  if (irregular !== undefined) return irregular;
  const word = chars(lower);
  if (chars(input).length <= 2) return lower;
  const steps = [step1a, step1b, step1c, step2, step3, step4, step5a, step5b];
  return steps.reduce<Word>((stemmed, step) => step(stemmed), word).join("");
}
