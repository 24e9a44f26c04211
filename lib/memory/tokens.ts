/**
 * The one tokenizer of Lifeline: o200k_base (gpt-tokenizer's default, the GPT-4o family encoding).
 * The prompt builder budgets history with it; the offline model counts usage and cuts output with it.
 */
import { countTokens as countBpeTokens, decode, encode } from "gpt-tokenizer";

/** Text such as `<|endoftext|>` in a message is counted as ordinary text instead of throwing. */
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * Tokens in `text`. Counts content only: the few tokens of per-message chat framing are not included.
 */
export function countTokens(text: string): number {
  return text === "" ? 0 : countBpeTokens(text, PLAIN_TEXT);
}

/** The longest prefix of `text` that fits in `maxTokens` tokens — what a provider's max_tokens cut leaves. */
export function truncateToTokens(text: string, maxTokens: number): string {
  const tokens = encode(text, PLAIN_TEXT);
  return tokens.length <= maxTokens ? text : decode(tokens.slice(0, Math.max(0, maxTokens)));
}
