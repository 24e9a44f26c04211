/**
 * The one tokenizer of Lifeline: o200k_base (gpt-tokenizer's default, the GPT-4o family encoding).
 * The prompt builder budgets history with it; the offline model counts usage and cuts output with it.
 *
 * Byte-pair merging is quadratic in the length of one pre-token (the encoding's split regex keeps
 * a run of emoji, CJK or one long word together), so 15,000 emoji took ~11 s. The text is split
 * with the encoding's own regex here and a pre-token longer than `textCostConfig.maxPretokenChars`
 * is encoded in pieces of that length: linear in the text, exact for every ordinary word.
 */
import { countTokens as countBpeTokens, decode, encode } from "gpt-tokenizer";
import { O200K_TOKEN_SPLIT_REGEX } from "gpt-tokenizer/encodingParams/constants";
import { textCostConfig } from "@/core/config";

/** Text such as `<|endoftext|>` in a message is counted as ordinary text instead of throwing. */
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * `text` as consecutive pieces the tokenizer can encode in linear time: the runs of ordinary
 * pre-tokens unchanged, and every over-long pre-token cut into `maxChars` pieces (never inside a
 * surrogate pair). Joined, the pieces are `text`.
 */
export function boundedPieces(text: string, maxChars: number = textCostConfig.maxPretokenChars): string[] {
  const pieces: string[] = [];
  let start = 0;
  for (const match of text.matchAll(new RegExp(O200K_TOKEN_SPLIT_REGEX.source, "gu"))) {
    const pretoken = match[0];
    if (pretoken.length <= maxChars) continue;
    const at = match.index;
    if (at > start) pieces.push(text.slice(start, at));
    for (let i = 0; i < pretoken.length; ) {
      let end = Math.min(pretoken.length, i + maxChars);
      // Do not split a surrogate pair (an emoji is two UTF-16 units).
      if (end < pretoken.length && /[\uD800-\uDBFF]/.test(pretoken.charAt(end - 1))) end -= 1;
      pieces.push(pretoken.slice(i, end));
      i = end;
    }
    start = at + pretoken.length;
  }
  if (start < text.length || pieces.length === 0) pieces.push(text.slice(start));
  return pieces;
}

/**
 * Tokens in `text`. Counts content only: the few tokens of per-message chat framing are not included.
 */
export function countTokens(text: string): number {
  if (text === "") return 0;
  let count = 0;
  for (const piece of boundedPieces(text)) count += countBpeTokens(piece, PLAIN_TEXT);
  return count;
}

/** The tokens of `text`, encoded as `countTokens` counts them (as many). */
export function tokenize(text: string): number[] {
  const tokens: number[] = [];
  for (const piece of boundedPieces(text)) for (const token of encode(piece, PLAIN_TEXT)) tokens.push(token);
  return tokens;
}

/**
 * The text of a run of tokens. A run cut out of a longer text may start or end inside a character
 * that takes several tokens: that partial character is left out, never shown as U+FFFD.
 */
export function detokenize(tokens: readonly number[]): string {
  return decode(tokens).replace(/^\uFFFD+|\uFFFD+$/g, "");
}

/** The longest prefix of `text` that fits in `maxTokens` tokens — what a provider's max_tokens cut leaves. */
export function truncateToTokens(text: string, maxTokens: number): string {
  const tokens: number[] = [];
  for (const piece of boundedPieces(text)) {
    for (const token of encode(piece, PLAIN_TEXT)) tokens.push(token);
    if (tokens.length > maxTokens) break;
  }
  return tokens.length <= maxTokens ? text : decode(tokens.slice(0, Math.max(0, maxTokens)));
}
