/**
 * Coordinated predicates sharing the user as subject, for the offline extractor ("I'm vegetarian and
 * allergic to peanuts"). Structure decides: a conjunct is a predicate of its own only when, subject
 * restored, it is a statement the extractor recognises, so "I live in Bosnia and Herzegovina" stays whole.
 */

const MAX_CONJUNCTS = 8;
const SUBJECT = /^(i'm|i am|im|we're|we are|i|we)\s+/i;
const COORDINATOR = /\s*,\s*(?:(?:and|but|plus)\s+)?|\s+(?:and|but|as well as|plus)\s+/gi;
const BARE_SUBJECT: Readonly<Record<string, string>> = {
  "i'm": "i",
  "i am": "i",
  im: "i",
  "we're": "we",
  "we are": "we",
};

/** The clause itself (one element) when it is not a coordination of predicates. */
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
