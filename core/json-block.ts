/**
 * A JSON value between delimiter tags in a prompt, as the consolidation prompt writes its candidate and near
 * memories. `<` is written as \u003c inside the JSON, so no stored text can close a block or forge one. Written
 * and read here, so the redaction of a captured prompt (db/queries/extraction-input-redaction.ts) rewrites the
 * blocks by parsing them, never by searching the text.
 */

export const CONSOLIDATION_BLOCKS = { candidate: "new_memory", near: "existing_memories" } as const;

/** JSON that cannot contain "<", so it cannot contain a closing tag. */
function safeJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(/</g, "\\u003c");
}

export function jsonBlock(tag: string, value: unknown): string {
  return `<${tag}>\n${safeJson(value)}\n</${tag}>`;
}

/**
 * `text` with the block `tag` rewritten by `rewrite` (the other text byte for byte as it was); unchanged when it
 * has no such block; null when the block is there but is not the JSON this module wrote.
 */
export function rewriteJsonBlock(text: string, tag: string, rewrite: (value: unknown) => unknown): string | null {
  const open = `<${tag}>\n`;
  const close = `\n</${tag}>`;
  const start = text.indexOf(open);
  if (start < 0) return text;
  const end = text.indexOf(close, start + open.length);
  if (end < 0) return null;
  let value: unknown;
  try {
    value = JSON.parse(text.slice(start + open.length, end));
  } catch {
    return null;
  }
  return `${text.slice(0, start)}${jsonBlock(tag, rewrite(value))}${text.slice(end + close.length)}`;
}
