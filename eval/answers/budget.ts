/**
 * The run's token budget (embeddings not counted): a call starts only when spent plus in-flight
 * estimates fits, so a run never passes it by more than its calls in flight exceed their estimates.
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

  reserve(estimate: number): boolean {
    if (this.stopped) return false;
    if (this.limit !== null && this.spent + this.reserved + estimate > this.limit) {
      this.stopped = true;
      return false;
    }
    this.reserved += estimate;
    return true;
  }

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

const memorySystem = [
  MODE_INSTRUCTIONS.conversational,
  renderMemorySection(
    { status: "ok", lines: Array.from({ length: formatterConfig.maxMemories }, () => "w ".repeat(50)) },
    "the user",
  ),
].join("\n\n");
const memoryOffSystem = `${MODE_INSTRUCTIONS.conversational}\n\n${renderMemorySection({ status: "disabled" }, "the user")}`;

/** Tool calls resend the prompt, which the estimate does not foresee (the spend is counted as reported). */
export function estimateTurn(input: { message: string; memoryEnabled: boolean; history?: readonly string[] }): number {
  const system = input.memoryEnabled ? countTokens(memorySystem) + TOOLS_ESTIMATE : countTokens(memoryOffSystem);
  const history = (input.history ?? []).reduce((sum, text) => sum + countTokens(text), 0);
  return system + history + countTokens(input.message) + ANSWER_OUTPUT_ESTIMATE;
}

export function estimateJudge(input: { question: string; gold: string; answer: string }): number {
  return countTokens(judgePrompt(input.question, input.gold, input.answer)) + JUDGE_OUTPUT_ESTIMATE;
}

export function estimateExtraction(exchange: { user: string; assistant: string }): number {
  return countTokens(EXTRACTION_SYSTEM_PROMPT) + countTokens(exchange.user) + countTokens(exchange.assistant) + 600;
}

/** The history budget of the full-context baseline: the whole conversation fits (LoCoMo's longest is ~25k tokens). */
export const FULL_CONTEXT_HISTORY_BUDGET = 1_000_000;
