import { type ComponentProps, createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { SectionCard } from "./section-card";

describe("SectionCard", () => {
  it("carries its id, so a link to #<id> (the memory card's #extraction) resolves to the section", () => {
    const html = renderToStaticMarkup(
      createElement(
        SectionCard,
        { id: "extraction", title: "What Lifeline learned" } as ComponentProps<typeof SectionCard>,
        "…",
      ),
    );
    expect(html).toMatch(/^<section id="extraction" aria-labelledby="extraction-heading"/);
    expect(html).toContain('<h2 id="extraction-heading"');
  });
});
