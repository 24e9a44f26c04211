import { describe, expect, it } from "vitest";
import { extractMemoriesOffline } from "./extractor";
import { resolveReferences, updateAntecedents } from "./reference";

const contents = (userMessage: string) =>
  extractMemoriesOffline({ currentDate: "2026-11-30", userMessage }).memories.map((m) => `${m.title}: ${m.content}`);

describe("updateAntecedents: what a clause names for later clauses", () => {
  it("keeps the thing of an attitude, the latest place and a dwelling's place", () => {
    expect(updateAntecedents({}, "I never liked mushrooms as a kid")).toEqual({ thing: "mushrooms" });
    expect(updateAntecedents({}, "My employer sent me to Denver")).toEqual({ place: "Denver" });
    expect(updateAntecedents({}, "We rented a flat in Lyon")).toEqual({ place: "Lyon", dwelling: "Lyon" });
  });

  it("keeps no pronoun as a thing, and no organisation as a place", () => {
    expect(updateAntecedents({}, "I like it")).toEqual({});
    expect(updateAntecedents({}, "I moved to Microsoft")).toEqual({});
  });

  it("lets a later antecedent replace an earlier one", () => {
    const first = updateAntecedents({}, "I hated peppers");
    expect(updateAntecedents(first, "I disliked beetroot too")).toEqual({ thing: "beetroot" });
  });
});

describe("resolveReferences: a pronoun, 'there', 'that's where' and a bare 'moved in'", () => {
  it.each([
    ["now I enjoy them", { thing: "mushrooms" }, "now I enjoy mushrooms"],
    ["I adore it now", { thing: "coffee" }, "I adore coffee now"],
    ["that's where we live", { place: "Denver" }, "we live in Denver"],
    ["which is where I'm based", { place: "Leeds" }, "I'm based in Leeds"],
    ["I live there too", { place: "Oslo" }, "I live in Oslo too"],
    ["moved in last week", { dwelling: "Lyon" }, "moved into Lyon"],
  ])("%j with %j → %j", (statement, antecedents, resolved) => {
    expect(resolveReferences(statement, antecedents)).toBe(resolved);
  });

  it.each([
    // number disagreement: "them" is not "coffee", "it" is not "mushrooms"
    ["I love them", { thing: "coffee" }],
    ["I love it", { thing: "mushrooms" }],
    // the pronoun is not the attitude's object
    ["I love it when you call", { thing: "coffee" }],
    // no antecedent of the right kind
    ["that's where I live", { thing: "olives" }],
    ["moved in last week", { place: "Lyon" }],
    // "moved in with" someone, or into a named place, points at nothing before
    ["moved in with my girlfriend", { dwelling: "Lyon" }],
  ])("leaves %j alone with %j", (statement, antecedents) => {
    expect(resolveReferences(statement, antecedents)).toBe(statement);
  });
});

describe("extractMemoriesOffline with references across clauses", () => {
  it("reads a changed attitude whose thing is a pronoun", () => {
    expect(contents("I couldn't stand mushrooms as a kid, but now I enjoy them.")).toEqual([
      "Preference: Enjoys mushrooms",
    ]);
    expect(contents("I used to love jazz but now I can't stand it.")).toEqual(["Preference: Dislikes jazz"]);
    expect(contents("I never liked coffee. These days I adore it.")).toEqual(["Drink preference: Adores coffee"]);
    expect(contents("I grew up hating broccoli, but I love it now.")).toEqual(["Preference: Loves broccoli"]);
  });

  it("reads where the user lives from a clause pointing back at a place", () => {
    expect(contents("My employer sent me to Denver, and that's where I live now.")).toEqual(["Home: Lives in Denver"]);
    expect(contents("I found a job in Leeds, which is where I'm based.")).toEqual(["Home: Lives in Leeds"]);
    expect(contents("We rented a flat in Lyon and moved in last week.")).toEqual(["Home: Lives in Lyon"]);
    expect(contents("We bought a place in Cork and moved in right away.")).toEqual(["Home: Lives in Cork"]);
  });

  it("stores nothing when the reference points at no fitting antecedent, or at something not the user's home", () => {
    for (const message of [
      "I love them.",
      "I went to Paris and I love it.",
      "We visited Lisbon, that's where I proposed.",
      "I tried sushi once and I loved it.",
      "I bought a flat in Porto but never moved in.",
      "We rented a cabin in Aspen and moved in for the week.",
      "We rented a flat in Lyon but haven't moved in yet.",
    ])
      expect(contents(message), message).toEqual([]);
    // someone else's home stays theirs
    expect(contents("I flew to Rome, which is where my parents live.")).toEqual(["Parents: Parents live in Rome"]);
  });
});
