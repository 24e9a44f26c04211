/** Cutting text by characters (Unicode code points), never through a surrogate pair: a lone surrogate cannot be stored (Postgres rejects it in text and jsonb). */

export function takeChars(text: string, max: number): string {
  if (text.length <= max) return text;
  return [...text].slice(0, Math.max(0, max)).join("");
}

/** The first `max` UTF-16 units of `text` (what `.length` and zod's `max` count), less a trailing half surrogate pair. */
export function takeUnits(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, Math.max(0, max));
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/**
 * `text` in consecutive pieces of at most `max` UTF-16 units, each cut after the last whitespace
 * in reach (or, with none, at `max`, never through a surrogate pair). Joined, they are `text`.
 * Linear in `text`.
 */
export function cutAtWhitespace(text: string, max: number): string[] {
  if (text.length <= max) return [text];
  const pieces: string[] = [];
  let start = 0;
  while (text.length - start > max) {
    let end = start + max;
    while (end > start && !/\s/.test(text.charAt(end - 1))) end -= 1;
    if (end === start) {
      // No whitespace in reach: cut at max units, before a high surrogate whose pair would be split.
      end = start + max;
      if (max > 1 && /[\uD800-\uDBFF]/.test(text.charAt(end - 1))) end -= 1;
    }
    pieces.push(text.slice(start, end));
    start = end;
  }
  pieces.push(text.slice(start));
  return pieces;
}

/** `text` cut to at most `max` characters, ending in "..." when cut. */
export function truncateChars(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, Math.max(0, max - 3)).join("")}...`;
}

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function uncapitalize(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
