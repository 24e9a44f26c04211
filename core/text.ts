/** Cutting text by characters (Unicode code points), never through a surrogate pair: a lone surrogate cannot be stored (Postgres rejects it in text and jsonb). */

/** The first `max` characters of `text`. */
export function takeChars(text: string, max: number): string {
  if (text.length <= max) return text;
  return [...text].slice(0, Math.max(0, max)).join("");
}

/** `text` cut to at most `max` characters, ending in "..." when cut. */
export function truncateChars(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, Math.max(0, max - 3)).join("")}...`;
}

/** `text` with its first character upper-cased ("lives in Porto" → "Lives in Porto"). */
export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** `text` with its first character lower-cased. */
export function uncapitalize(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
