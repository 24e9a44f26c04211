/**
 * A pasted memory list — what another assistant answered when asked what it remembers — split
 * into one memory per line or bullet. Bullets and numbering are removed; headings (a line ending
 * in a colon) and blank lines are dropped; a bullet's wrapped continuation line joins it.
 */
import { cleanText } from "./types";

const BULLET = /^\s*(?:[-*•·–—]|\d{1,3}[.)])\s+/;
const MARKDOWN_EMPHASIS = /(\*\*|__)(.+?)\1/g;

export function splitPastedMemories(text: string, { max }: { max: number }): string[] {
  const items: string[] = [];
  let continuing = false;
  for (const raw of cleanText(text).split("\n")) {
    const line = raw.trim();
    if (line.length === 0) {
      continuing = false;
      continue;
    }
    const bullet = BULLET.test(line);
    const content = line
      .replace(BULLET, "")
      .replace(/^#+\s*/, "")
      .replace(MARKDOWN_EMPHASIS, "$2")
      .trim();
    if (content.endsWith(":")) {
      continuing = false;
      continue;
    }
    if (!bullet && continuing && /^\s/.test(raw) && items.length > 0) {
      items[items.length - 1] = `${items[items.length - 1]} ${content}`;
      continue;
    }
    if (content.length > 0) items.push(content);
    continuing = bullet;
  }
  return [...new Set(items)].slice(0, max);
}
