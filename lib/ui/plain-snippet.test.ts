import { describe, expect, it } from "vitest";
import { SNIPPET_END, SNIPPET_START } from "@/core/config";
import { plainSnippet } from "./plain-snippet";

const S = SNIPPET_START;
const E = SNIPPET_END;

describe("plainSnippet", () => {
  it("drops the markers a cut through markdown leaves", () => {
    expect(plainSnippet(`…Thursday** — to ${S}Priya${E}`)).toBe(`…Thursday — to ${S}Priya${E}`);
    expect(plainSnippet(`**Lunch** with _Ana_ and \`code\` ~~gone~~`)).toBe("Lunch with Ana and code gone");
  });

  it("keeps the text of links and images, not their addresses", () => {
    expect(plainSnippet(`see [the ${S}menu${E}](https://example.com/menu) and ![a cat](/cat.png)`)).toBe(
      `see the ${S}menu${E} and a cat`,
    );
  });

  it("drops line-start syntax and joins lines", () => {
    expect(plainSnippet(`## Plan\n- buy ${S}milk${E}\n> quoted\n1. first\n---`)).toBe(
      `Plan buy ${S}milk${E} quoted first`,
    );
  });

  it("leaves snake_case, arithmetic and plain text alone", () => {
    expect(plainSnippet("my_var = 2 - 1, a plain sentence")).toBe("my_var = 2 - 1, a plain sentence");
  });

  it("keeps the match marks around an emphasised match", () => {
    expect(plainSnippet(`the **${S}vegetarian${E}** menu`)).toBe(`the ${S}vegetarian${E} menu`);
    expect(plainSnippet(`_${S}tea${E}_`)).toBe(`${S}tea${E}`);
  });
});
