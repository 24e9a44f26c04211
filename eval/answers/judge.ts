/**
 * mem0's LoCoMo judge (mem0ai/mem0 evaluation/metrics/llm_judge.py, ACCURACY_PROMPT; Apache-2.0),
 * as published with the numbers it produced, so a number here compares with theirs. Its leniency
 * is measured beside every score: the same judge on the audit's vague wrong answers.
 */
import type { LanguageModelV4 } from "@ai-sdk/provider";
import { generateText, NoObjectGeneratedError, Output } from "ai";
import { modelCallConfig } from "@/core/config";
import { modelCapabilities } from "@/core/model-capabilities";

export const JUDGE_PROMPT_SOURCE = "mem0 LoCoMo judge (mem0ai/mem0, evaluation/metrics/llm_judge.py, ACCURACY_PROMPT)";

// Verbatim, typographic quotes and trailing spaces included: the judge is only mem0's if its text is.
const ACCURACY_PROMPT = `
Your task is to label an answer to a question as ’CORRECT’ or ’WRONG’. You will be given the following data:
    (1) a question (posed by one user to another user), 
    (2) a ’gold’ (ground truth) answer, 
    (3) a generated answer
which you will score as CORRECT/WRONG.

The point of the question is to ask about something one user should know about the other user based on their prior conversations.
The gold answer will usually be a concise and short answer that includes the referenced topic, for example:
Question: Do you remember what I got the last time I went to Hawaii?
Gold answer: A shell necklace
The generated answer might be much longer, but you should be generous with your grading - as long as it touches on the same topic as the gold answer, it should be counted as CORRECT. 

For time related questions, the gold answer will be a specific date, month, year, etc. The generated answer might be much longer or use relative time references (like "last Tuesday" or "next month"), but you should be generous with your grading - as long as it refers to the same date or time period as the gold answer, it should be counted as CORRECT. Even if the format differs (e.g., "May 7th" vs "7 May"), consider it CORRECT if it's the same date.

Now it's time for the real question:
Question: {question}
Gold answer: {gold_answer}
Generated answer: {generated_answer}

First, provide a short (one sentence) explanation of your reasoning, then finish with CORRECT or WRONG. 
Do NOT include both CORRECT and WRONG in your response, or it will break the evaluation script.

Just return the label CORRECT or WRONG in a json format with the key as "label".
`;

export function judgePrompt(question: string, gold: string, answer: string): string {
  return ACCURACY_PROMPT.replace("{question}", () => question)
    .replace("{gold_answer}", () => gold)
    .replace("{generated_answer}", () => answer);
}

export interface Verdict {
  /** true: CORRECT; false: any other label; null: the judge's answer had no label (see `error`). */
  correct: boolean | null;
  error: string | null;
  inputTokens: number;
  outputTokens: number;
}

/** mem0's extract_json: the JSON inside a ```json fence when there is one, else the whole text. */
function labelOf(text: string): string | null {
  const fenced = /```(?:json)?\s*([\s\S]*?)\s*```/.exec(text)?.[1] ?? text;
  try {
    const value = JSON.parse(fenced.trim()) as unknown;
    const label = value && typeof value === "object" ? (value as { label?: unknown }).label : undefined;
    return typeof label === "string" ? label : null;
  } catch {
    return null;
  }
}

export async function judge(
  model: LanguageModelV4,
  input: { question: string; gold: string; answer: string },
): Promise<Verdict> {
  const capabilities = modelCapabilities(model.modelId);
  let text: string;
  let usage: { inputTokens?: number; outputTokens?: number };
  try {
    const result = await generateText({
      model,
      messages: [{ role: "user", content: judgePrompt(input.question, input.gold, input.answer) }],
      // A reasoning model takes only its default temperature (core/model-capabilities.ts).
      ...(capabilities.temperature ? { temperature: 0 } : {}),
      output: Output.json(),
      timeout: modelCallConfig.structuredTimeoutMs,
    });
    text = result.text;
    usage = result.usage;
  } catch (error) {
    if (!NoObjectGeneratedError.isInstance(error)) throw error;
    text = error.text ?? "";
    usage = error.usage ?? {};
  }
  const label = labelOf(text);
  return {
    correct: label === null ? null : label === "CORRECT",
    error: label === null ? `the judge answered no label: ${text.slice(0, 200)}` : null,
    inputTokens: usage.inputTokens ?? 0,
    outputTokens: usage.outputTokens ?? 0,
  };
}
