import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Markdown } from "./markdown";

const render = (text: string, dates?: { locale: string; today: string }) =>
  // biome-ignore lint/correctness/noChildrenProp: a .ts test has no JSX, and createElement's typing wants children in the props
  renderToStaticMarkup(createElement(Markdown, { dates, children: text }));

describe("Markdown", () => {
  const gb = { locale: "en-GB", today: "2026-12-02" };

  it("shows the ISO dates of an answer's prose in the user's locale, with the weekday", () => {
    const html = render("Noted: you need to call mom by 2026-12-04, and **renew your passport by 2027-03-03**.", gb);
    expect(html).toContain('call mom by <time dateTime="2026-12-04" title="2026-12-04">Fri 4 Dec</time>,');
    expect(html).toContain(
      '<strong>renew your passport by <time dateTime="2027-03-03" title="2027-03-03">Wed, 3 Mar 2027</time></strong>',
    );
    expect(html.replace(/"\d{4}-\d{2}-\d{2}"/g, "")).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    expect(render("Due 2026-12-11.", { locale: "en-US", today: "2026-12-02" })).toContain(
      '<time dateTime="2026-12-11" title="2026-12-11">Fri, Dec 11</time>.',
    );
  });

  it("leaves code, link targets and text without a date context as written", () => {
    const html = render(
      "Run `backup --since 2026-12-04` or see [the log](https://example.com/2026-12-04).\n\n```\n2026-12-04\n```",
      gb,
    );
    expect(html).toContain("<code>backup --since 2026-12-04</code>");
    expect(html).toContain('href="https://example.com/2026-12-04"');
    expect(html).toMatch(/<code[^>]*>2026-12-04\n<\/code>/);
    expect(render("by 2026-12-04")).toContain("by 2026-12-04");
  });
});
