import { decode, encode } from "gpt-tokenizer";

/** Special-token markers such as `<|endoftext|>` are treated as ordinary text instead of throwing. */
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * The longest prefix of `text` that fits in `maxTokens` o200k_base tokens — what a provider's
 * max_tokens cut leaves. Counted with the same encoding as countTokens in lib/memory/tokens.
 */
export function truncateToTokens(text: string, maxTokens: number): string {
  const tokens = encode(text, PLAIN_TEXT);
  return tokens.length <= maxTokens ? text : decode(tokens.slice(0, Math.max(0, maxTokens)));
}
