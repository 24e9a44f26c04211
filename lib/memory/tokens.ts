/**
 * Byte-pair merging is quadratic in one pre-token's length (15,000 emoji took ~11 s), so over-long
 * pre-tokens are encoded in pieces: linear in the text, exact for every ordinary word.
 */
import { countTokens as countBpeTokens, decode, encode } from "gpt-tokenizer";
import { O200K_TOKEN_SPLIT_REGEX } from "gpt-tokenizer/encodingParams/constants";
import { textCostConfig } from "@/core/config";

/** Text such as `<|endoftext|>` in a message is counted as ordinary text instead of throwing. */
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/** Joined, the pieces are `text`. */
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

/** Content only: per-message chat framing is not included. */
export function countTokens(text: string): number {
  if (text === "") return 0;
  let count = 0;
  for (const piece of boundedPieces(text)) count += countBpeTokens(piece, PLAIN_TEXT);
  return count;
}

export function tokenize(text: string): number[] {
  const tokens: number[] = [];
  for (const piece of boundedPieces(text)) for (const token of encode(piece, PLAIN_TEXT)) tokens.push(token);
  return tokens;
}

/** A partial multi-token character at either end is left out, never shown as U+FFFD. */
export function detokenize(tokens: readonly number[]): string {
  return decode(tokens).replace(/^\uFFFD+|\uFFFD+$/g, "");
}

/** What a provider's max_tokens cut leaves. */
export function truncateToTokens(text: string, maxTokens: number): string {
  const tokens: number[] = [];
  for (const piece of boundedPieces(text)) {
    for (const token of encode(piece, PLAIN_TEXT)) tokens.push(token);
    if (tokens.length > maxTokens) break;
  }
  return tokens.length <= maxTokens ? text : decode(tokens.slice(0, Math.max(0, maxTokens)));
}
