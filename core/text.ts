/** Never cut through a surrogate pair: Postgres rejects a lone surrogate in text and jsonb. */

export function takeChars(text: string, max: number): string {
  if (text.length <= max) return text;
  return [...text].slice(0, Math.max(0, max)).join("");
}

/** UTF-16 units are what `.length` and zod's `max` count. */
export function takeUnits(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, Math.max(0, max));
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/** Pieces cut after the last whitespace in reach; joined, they are `text`. Linear in `text`. */
export function cutAtWhitespace(text: string, max: number): string[] {
  if (text.length <= max) return [text];
  const pieces: string[] = [];
  let start = 0;
  while (text.length - start > max) {
    let end = start + max;
    while (end > start && !/\s/.test(text.charAt(end - 1))) end -= 1;
    if (end === start) {
      end = start + max;
      if (max > 1 && /[\uD800-\uDBFF]/.test(text.charAt(end - 1))) end -= 1;
    }
    pieces.push(text.slice(start, end));
    start = end;
  }
  pieces.push(text.slice(start));
  return pieces;
}

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
