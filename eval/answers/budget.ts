/**
 * The run's token budget: model tokens (input + output, as the model reports them) of the chat
 * turns, the judge and the extraction job; embeddings are not counted. A call starts only when what
 * was spent, plus what the calls in flight and this one are estimated to spend, stays within the
 * budget; once one is refused, nothing more starts. So a run never passes its budget by more than
 * what its calls in flight spend beyond their estimates.
 */
import { formatterConfig } from "@/core/config";
import { EXTRACTION_SYSTEM_PROMPT } from "@/lib/memory/extraction/prompt";
import { MODE_INSTRUCTIONS } from "@/lib/memory/retrieval/modes";
import { renderMemorySection } from "@/lib/memory/retrieval/prompt";
import { countTokens } from "@/lib/memory/tokens";
import { judgePrompt } from "./judge";

export class TokenBudget {
  spent = 0;
  private reserved = 0;
  stopped = false;

  constructor(readonly limit: number | null) {}

  /** Reserves `estimate` for a call; false (and stopped from now on) when it would not fit. */
  reserve(estimate: number): boolean {
    if (this.stopped) return false;
    if (this.limit !== null && this.spent + this.reserved + estimate > this.limit) {
      this.stopped = true;
      return false;
    }
    this.reserved += estimate;
    return true;
  }

  /** The call that reserved `estimate` spent `tokens`. */
  settle(estimate: number, tokens: number): void {
    this.reserved -= estimate;
    this.spent += tokens;
  }
}

/** Output tokens allowed for in an estimate: an answer, and the judge's one-line JSON. */
export const ANSWER_OUTPUT_ESTIMATE = 200;
export const JUDGE_OUTPUT_ESTIMATE = 40;
/** The memory tools' definitions sent with a turn that has memory on. */
export const TOOLS_ESTIMATE = 400;

/** The system message with memory on and the formatter's largest memory section. */
const memorySystem = [
  MODE_INSTRUCTIONS.conversational,
  renderMemorySection(
    { status: "ok", lines: Array.from({ length: formatterConfig.maxMemories }, () => "w ".repeat(50)) },
    "the user",
  ),
].join("\n\n");
const memoryOffSystem = `${MODE_INSTRUCTIONS.conversational}\n\n${renderMemorySection({ status: "disabled" }, "the user")}`;

/**
 * A chat turn's tokens before it runs, by Lifeline's tokenizer: the system message (with the
 * largest memory section when memory is on, and the memory tools), the history that fits and the
 * question, and an answer's allowance; with memory on the model may call the tools, each call
 * sending the prompt again, which the estimate does not foresee (the spend is counted as reported).
 */
export function estimateTurn(input: { message: string; memoryEnabled: boolean; history?: readonly string[] }): number {
  const system = input.memoryEnabled ? countTokens(memorySystem) + TOOLS_ESTIMATE : countTokens(memoryOffSystem);
  const history = (input.history ?? []).reduce((sum, text) => sum + countTokens(text), 0);
  return system + history + countTokens(input.message) + ANSWER_OUTPUT_ESTIMATE;
}

export function estimateJudge(input: { question: string; gold: string; answer: string }): number {
  return countTokens(judgePrompt(input.question, input.gold, input.answer)) + JUDGE_OUTPUT_ESTIMATE;
}

/** An extraction job's first call: its instructions, the exchange, and a few memories' allowance. */
export function estimateExtraction(exchange: { user: string; assistant: string }): number {
  return countTokens(EXTRACTION_SYSTEM_PROMPT) + countTokens(exchange.user) + countTokens(exchange.assistant) + 600;
}

/** The history budget of the full-context baseline: the whole conversation fits (LoCoMo's longest is ~25k tokens). */
export const FULL_CONTEXT_HISTORY_BUDGET = 1_000_000;
