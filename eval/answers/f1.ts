/**
 * LoCoMo's token F1, reproduced from snap-research/locomo task_eval/evaluation.py (normalize_answer,
 * f1_score, f1, eval_question_answering), so a score here is the score the paper's code gives.
 * Category 1 is the multi-answer F1, 3 scores the gold part before the first ";", 2 and 4 plain F1.
 */
import { porterStem } from "./porter";

const PUNCTUATION = new Set(Array.from("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"));
/** A word character of the `regex` module's Unicode \b: letters, marks, digits, connectors. */
const WORD = String.raw`[\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\p{Join_Control}]`;
const ARTICLES = new RegExp(`(?<!${WORD})(?:a|an|the|and)(?!${WORD})`, "gu");
/** What Python's str.split() splits on (str.isspace), built from code points: the separators U+001C–U+001F included. */
const WHITESPACE = new RegExp(
  `[${[
    0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f,
    0x3000,
  ]
    .map((code) => `\\u{${code.toString(16)}}`)
    .join("")}\\u{2000}-\\u{200a}]+`,
  "u",
);

export function normalizeAnswer(text: string): string {
  const lower = text.replaceAll(",", "").toLowerCase();
  const unpunctuated = Array.from(lower)
    .filter((ch) => !PUNCTUATION.has(ch))
    .join("");
  return splitWhitespace(unpunctuated.replace(ARTICLES, " ")).join(" ");
}

function splitWhitespace(text: string): string[] {
  return text.split(WHITESPACE).filter((part) => part !== "");
}

const stems = (text: string) => splitWhitespace(normalizeAnswer(text)).map(porterStem);

export function tokenF1(prediction: string, gold: string): number {
  const predicted = stems(prediction);
  const expected = stems(gold);
  const left = new Map<string, number>();
  for (const token of expected) left.set(token, (left.get(token) ?? 0) + 1);
  let same = 0;
  for (const token of predicted) {
    const count = left.get(token) ?? 0;
    if (count > 0) {
      same++;
      left.set(token, count - 1);
    }
  }
  if (same === 0) return 0;
  const precision = same / predicted.length;
  const recall = same / expected.length;
  return (2 * precision * recall) / (precision + recall);
}

export function multiAnswerF1(prediction: string, gold: string): number {
  const predictions = prediction.split(",").map((part) => part.trim());
  const golds = gold.split(",").map((part) => part.trim());
  const best = golds.map((g) => Math.max(...predictions.map((p) => tokenF1(p, g))));
  return best.reduce((sum, value) => sum + value, 0) / best.length;
}

export function locomoF1(category: number, prediction: string, gold: string): number {
  switch (category) {
    case 1:
      return multiAnswerF1(prediction, gold);
    case 2:
    case 4:
      return tokenF1(prediction, gold);
    case 3:
      return tokenF1(prediction, (gold.split(";")[0] ?? "").trim());
    default:
      throw new Error(`LoCoMo F1 is defined for categories 1–4, not ${category}`);
  }
}
