import { countTokens as countBpeTokens } from "gpt-tokenizer";

/** Text such as `<|endoftext|>` in a message is counted as ordinary text instead of throwing. */
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * Tokens in `text` under o200k_base (gpt-tokenizer's default, the GPT-4o family encoding).
 * Counts content only: the few tokens of per-message chat framing are not included.
 */
export function countTokens(text: string): number {
  return text === "" ? 0 : countBpeTokens(text, PLAIN_TEXT);
}
