/**
 * Every in-repo link of README.md and docs/*.md lands: the file exists and, for a `#fragment`, the
 * target Markdown file has a heading with that GitHub anchor.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "..");
const DOCS = [
  "README.md",
  ...readdirSync(path.join(ROOT, "docs")).flatMap((f) => (f.endsWith(".md") ? [`docs/${f}`] : [])),
];

/** Markdown without its fenced code blocks, where a `[x](y)` is code, not a link. */
const prose = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, "");

/** GitHub's anchor of a heading: lower case, punctuation dropped (not `-` or `_`), each space a `-`. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, "")
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/ /g, "-");
}

function anchorsOf(file: string): Set<string> {
  const headings = [...prose(readFileSync(path.join(ROOT, file), "utf8")).matchAll(/^#{1,6} (.+)$/gm)];
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, text] of headings) {
    const base = anchorOf(text as string);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** Every broken in-repo link of `file`, as "file: target (why)". */
function brokenLinks(file: string, markdown = readFileSync(path.join(ROOT, file), "utf8")): string[] {
  const links = [...prose(markdown).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)];
  return links.flatMap(([, target]) => {
    const link = target as string;
    if (/^[a-z][a-z+.-]*:/i.test(link)) return [];
    const [linkPath, fragment] = link.split("#") as [string, string | undefined];
    const resolved = linkPath ? path.normalize(path.join(path.dirname(file), linkPath)) : file;
    if (!existsSync(path.join(ROOT, resolved))) return [`${file}: ${link} (no such file)`];
    if (fragment === undefined || !resolved.endsWith(".md")) return [];
    return anchorsOf(resolved).has(fragment) ? [] : [`${file}: ${link} (no heading #${fragment} in ${resolved})`];
  });
}

describe("documentation links", () => {
  it("anchors are GitHub's", () => {
    expect(anchorOf("3. Semantic branch — one statement")).toBe("3-semantic-branch--one-statement");
    expect(anchorOf("The word-vector embedders (`offline/wordvec-glove-v2`, `v1`)")).toBe(
      "the-word-vector-embedders-offlinewordvec-glove-v2-v1",
    );
    expect(anchorOf("The offline model's decision")).toBe("the-offline-models-decision");
  });

  it("the check sees a missing file and a missing heading, and skips code and outside links", () => {
    const markdown = [
      "[gone](nope.md) [no heading](retrieval.md#nope) [fine](retrieval.md#deleting-a-memory)",
      "[outside](https://example.com/x.md) [image](images/debug-view.png)",
      "```",
      "[code](nope.md)",
      "```",
    ].join("\n");
    expect(brokenLinks("docs/example.md", markdown)).toEqual([
      "docs/example.md: nope.md (no such file)",
      "docs/example.md: retrieval.md#nope (no heading #nope in docs/retrieval.md)",
    ]);
  });

  it.each(DOCS)("every in-repo link of %s lands", (file) => {
    expect(brokenLinks(file)).toEqual([]);
  });
});
