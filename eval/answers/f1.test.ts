import { describe, expect, it } from "vitest";
import { locomoF1, multiAnswerF1, normalizeAnswer, tokenF1 } from "./f1";

/**
 * Expected values from LoCoMo's own evaluation code (task_eval/evaluation.py: normalize_answer,
 * f1_score, f1 and eval_question_answering's per-category rules) run on these invented answers
 * with NLTK 3.8's Porter stemmer; ours agreed with it on 4,620 (category, answer, gold) triples
 * built from LoCoMo's questions too.
 */
describe("LoCoMo's token F1", () => {
  it("normalises as normalize_answer: commas, case, ASCII punctuation, articles and 'and', whitespace", () => {
    expect(normalizeAnswer("The Cat, and a Dog!")).toBe("cat dog");
    // Non-ASCII punctuation stays, and a word boundary is Unicode-aware ("Théâtre" keeps its "the").
    expect(normalizeAnswer("Théâtre—the café")).toBe("théâtre— café");
    expect(normalizeAnswer("co-op   garden\u00a0plot")).toBe("coop garden plot");
    expect(normalizeAnswer("an")).toBe("");
    // Python's str.split() also splits on the information separators U+001C–U+001F.
    expect(normalizeAnswer("co-op\u001cgarden")).toBe("coop garden");
  });

  it.each([
    [2, "She went on 7 May 2023.", "7 May 2023", 2 / 3],
    [2, "7 May, 2023", "7 May 2023", 1],
    [4, "Running marathons", "ran a marathon", 0.5],
    [4, "an apple and the pear", "Apple, pear", 1],
    [4, "", "pottery", 0],
    [4, "pottery", "", 0],
    [4, "the", "a", 0],
    [4, "She's into hiking.", "hiking", 0.5],
    [4, "Théâtre café", "theatre cafe", 0],
    [1, "painting, hiking", "hiking, painting, swimming", 2 / 3],
    [1, "painting and hiking", "hiking, painting", 2 / 3],
    [1, "Paris", "Paris, Rome", 0.5],
    [3, "Likely yes, she enjoys nature", "Likely yes; she talked about camping", 0.5714285714285715],
    [3, "camping", "Likely no; camping trips", 0],
  ])("category %i: %j against %j scores %d", (category, prediction, gold, expected) => {
    expect(locomoF1(category, prediction, gold)).toBeCloseTo(expected, 12);
  });

  it("multi-answer F1 averages over the gold parts, each matched by its best predicted part", () => {
    expect(multiAnswerF1("hiking, painting", "painting")).toBe(1);
    expect(tokenF1("hiking, painting", "painting")).toBeCloseTo(2 / 3, 12);
  });

  it("refuses category 5, which the evaluation does not score", () => {
    expect(() => locomoF1(5, "no information available", "")).toThrow(/categories 1–4/);
  });
});
