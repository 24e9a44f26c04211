/**
 * Coordinated predicates sharing the user as subject, for the offline extractor: "I'm vegetarian
 * and allergic to peanuts" states two facts ("I'm vegetarian", "I'm allergic to peanuts"), "I live
 * in Leeds, work at Roche and love climbing" three. The clause is cut at its coordinators ("and",
 * "but", "as well as", a comma) and the subject ("I", "I'm", "we") is given back to each conjunct.
 *
 * Structure decides, not a list of phrasings: a conjunct is a predicate of its own only when, with
 * the subject restored, it is itself a statement the extractor recognises (`isStatement`), and so
 * is what comes before it. A coordinated noun is not: "I love salt and pepper chips" ("I pepper
 * chips"), "I live in Bosnia and Herzegovina" ("I Herzegovina"), "I'm allergic to peanuts and
 * shellfish" ("I'm shellfish") stay one clause; a coordinated subject ("My brother and I run a
 * bakery") has no user subject to share and is left whole.
 */

const MAX_CONJUNCTS = 8;
/** The shared subject at the clause's start: a copula ("I'm") or a bare subject before a verb ("I"). */
const SUBJECT = /^(i'm|i am|im|we're|we are|i|we)\s+/i;
/** Where conjuncts meet: ", and", ", but", ",", " and ", " but ", " as well as ", " plus ". */
const COORDINATOR = /\s*,\s*(?:(?:and|but|plus)\s+)?|\s+(?:and|but|as well as|plus)\s+/gi;
/** A bare subject for a conjunct that switches from the copula to a verb ("I'm 34 and live in Leeds"). */
const BARE_SUBJECT: Readonly<Record<string, string>> = {
  "i'm": "i",
  "i am": "i",
  im: "i",
  "we're": "we",
  "we are": "we",
};

/**
 * The statements of a coordinated clause, each with the shared subject, in order; the clause
 * itself (one element) when it is not a coordination of predicates. `isStatement` says whether a
 * candidate conjunct, subject restored, is a statement on its own.
 */
export function coordinatedStatements(clause: string, isStatement: (statement: string) => boolean): string[] {
  const subject = SUBJECT.exec(clause);
  if (!subject) return [clause];
  const lead = subject[1] ?? "";
  const rest = clause.slice(subject[0].length);
  const pieces: { text: string; separator: string }[] = [];
  let last = 0;
  for (const match of rest.matchAll(COORDINATOR)) {
    if (match.index === 0) continue;
    pieces.push({ text: rest.slice(last, match.index), separator: match[0] });
    last = match.index + match[0].length;
  }
  // Each conjunct is recognised once or twice: a long list (a pasted text) is left to the rules whole.
  if (pieces.length === 0 || pieces.length >= MAX_CONJUNCTS) return [clause];
  pieces.push({ text: rest.slice(last), separator: "" });

  const withSubject = (conjunct: string): string | undefined => {
    const candidates = [`${lead} ${conjunct}`];
    const bare = BARE_SUBJECT[lead.toLowerCase()];
    if (bare) candidates.push(`${bare} ${conjunct}`);
    return candidates.find(isStatement);
  };
  const statements: string[] = [];
  let current = pieces[0]?.text ?? "";
  let currentStatement = withSubject(current);
  for (let i = 1; i < pieces.length; i++) {
    const next = pieces[i]?.text ?? "";
    const nextStatement = next.trim() === "" ? undefined : withSubject(next);
    if (currentStatement && nextStatement) {
      statements.push(currentStatement);
      current = next;
      currentStatement = nextStatement;
    } else {
      current = `${current}${pieces[i - 1]?.separator ?? " "}${next}`;
      currentStatement = withSubject(current);
    }
  }
  if (statements.length === 0) return [clause];
  statements.push(currentStatement ?? `${lead} ${current}`);
  return statements;
}
