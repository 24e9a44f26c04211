/** `ts_headline` cuts markdown anywhere ("…Thursday** — to Priya"); the match marks pass through untouched. */
export function plainSnippet(snippet: string): string {
  return (
    snippet
      // Images and links keep their text: ![alt](url) → alt, [text](url) → text.
      .replace(/!?\[([^\]\n]*)\]\([^)\s]*\)/g, "$1")
      // Line starts: headings, quotes, list markers, table pipes and rules.
      .replace(/^[ \t]*(?:#{1,6}[ \t]+|>[ \t]?|[-*+][ \t]+|\d{1,9}[.)][ \t]+)/gm, "")
      .replace(/^[ \t]*(?:[-*_][ \t]*){3,}$/gm, "")
      // Emphasis, strike-through and code markers, wherever the cut left them.
      .replace(/\*{1,3}|~~|`+/g, "")
      // Underscores only as emphasis around words (`_word_`, `__word__`), never inside snake_case.
      .replace(/(^|[\s(\uE000])_{1,3}(?=\S)/g, "$1")
      .replace(/(?<=\S)_{1,3}(?=$|[\s).,;:!?\uE001])/g, "")
      .replace(/\|/g, " ")
      .replace(/\s+/g, " ")
      .trim()
  );
}
