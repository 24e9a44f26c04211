import { describe, expect, it } from "vitest";
import { extractMemoriesOffline } from "./extractor";
import { readUserSlot, valueKind } from "./slot-reader";

const contents = (userMessage: string) =>
  extractMemoriesOffline({ currentDate: "2026-11-30", userMessage }).memories.map((m) => `${m.title}: ${m.content}`);

describe("valueKind: what a name is, by its word vectors", () => {
  it.each([
    ["Glasgow", "place"],
    ["Lagos", "place"],
    ["Porto Alegre", "place"],
    ["Oracle", "organisation"],
    ["Nokia", "organisation"],
    ["Microsoft", "organisation"],
    ["Tom", "person"],
  ])("%s is a %s", (name, kind) => {
    expect(valueKind(name)).toBe(kind);
  });

  it("calls month and weekday names and unknown words nothing", () => {
    expect(valueKind("September")).toBe("unknown");
    expect(valueKind("Monday")).toBe("unknown");
    expect(valueKind("Qwzxlandia")).toBe("unknown");
  });
});

describe("readUserSlot: the slot, the value and the aspect, whatever the phrasing", () => {
  it.each([
    ["We resettled in Lagos in August", { slot: "home", value: "Lagos", negated: false }],
    ["My new address is in Hamburg, near the harbour", { slot: "home", value: "Hamburg", negated: false }],
    ["Copenhagen is home now", { slot: "home", value: "Copenhagen", negated: false }],
    ["I left Madrid for good", { slot: "home", value: "Madrid", negated: true }],
    ["I moved out of Chicago", { slot: "home", value: "Chicago", negated: true }],
    ["My employer is IKEA now", { slot: "workplace", value: "IKEA", negated: false }],
    ["I landed a position at NASA", { slot: "workplace", value: "NASA", negated: false }],
    ["I got laid off from Nokia last week", { slot: "workplace", value: "Nokia", negated: true }],
    ["I left SAP for Oracle in the summer", { slot: "workplace", value: "Oracle", negated: false }],
    ["I just hit 60", { slot: "age", value: "60", negated: false }],
    ["My age is 45 as of this week", { slot: "age", value: "45", negated: false }],
    ["I went vegan in the spring", { slot: "diet", value: "vegan", negated: false }],
    ["I've gone fully plant-based", { slot: "diet", value: "vegan", negated: false }],
    ["I gave up being vegan", { slot: "diet", value: "vegan", negated: true }],
    ["I outgrew my peanut allergy", { slot: "allergy", value: "peanut", negated: true }],
    ["I'm sick of true crime podcasts", { slot: "attitude", value: "true crime podcasts", positive: false }],
    ["I can't get enough of spicy food", { slot: "attitude", value: "spicy food", positive: true, negated: false }],
    ["Golf just doesn't interest me anymore", { slot: "attitude", value: "golf", negated: true }],
  ])("%j", (statement, expected) => {
    expect(readUserSlot(statement)).toMatchObject(expected);
  });

  it.each([
    // plans, wishes, hesitations
    "I'm tempted to leave IBM for a startup",
    "I can't decide whether to move to Florence",
    "Someday I'd love to live in Lisbon",
    "I'm thinking about moving to Vienna",
    // the habitual past and past states
    "I used to live in Adelaide",
    "I lived in Paris in 2019",
    "I worked at Google for ten years",
    // stays, visits and trips
    "I'm in Paris for a conference",
    "We're in Lisbon for the weekend",
    "I left Madrid yesterday",
    "I visited Lisbon last month",
    "I bought a flat in Madrid as an investment",
    "I'm based at the Oslo office",
    "moved in on Saturday",
    // a number that is not an age, an organisation that is not a home
    "I hit the gym at 6",
    "I'm 5 minutes away",
    "I joined Twitter",
    // someone else
    "My sister moved to Oslo",
  ])("reads nothing of the user's in %j", (statement) => {
    expect(readUserSlot(statement)).toBeUndefined();
  });
});

describe("extractMemoriesOffline with the slot reader", () => {
  it("states a change in the rules' canonical words, so consolidation sees one slot", () => {
    expect(contents("I've started eating fish, so I'm pescatarian.")).toEqual(["Diet: Is pescatarian"]);
    expect(contents("I quit Deloitte and now I'm a freelance designer.")).toEqual([
      "Workplace: No longer works at Deloitte",
      "Self-description: Is a freelance designer",
    ]);
    expect(contents("I'm back on meat after ten years.")).toEqual(["Diet: Eats meat"]);
    expect(contents("I retired from nursing in June.")).toEqual(["Occupation: Retired from nursing"]);
    expect(contents("I've switched from coffee to tea.")).toEqual(["Drink preference: Prefers tea"]);
  });

  it("reads the statement after a frame of time, circumstance or report, and keeps a hedge a hedge", () => {
    expect(contents("Since September I've been living in Montreal.")).toEqual(["Home: Lives in Montreal"]);
    expect(contents("My doctor says I'm no longer allergic to eggs.")).toEqual(["Allergy: Is not allergic to eggs"]);
    expect(contents("In another life I'd be a marine biologist living in Hawaii.")).toEqual([]);
  });

  it("drops the denial of an old value when the message states the new one", () => {
    expect(contents("Finally moved out of Manchester — I live in Leeds now.")).toEqual(["Home: Lives in Leeds"]);
  });

  it("stores someone else's change about them, never as the user's slot", () => {
    expect(contents("My cousin Ana turned 21 yesterday.")).toEqual(["Cousin Ana: Cousin Ana turned 21 yesterday"]);
    expect(contents("Our neighbour Tom is vegan now.")).toEqual(["Neighbour Tom: Neighbour Tom is vegan"]);
    expect(contents("My wife went vegan.")).toEqual(["Wife: Wife went vegan"]);
  });

  it("never reads a question or a supposition, whatever slot it names", () => {
    for (const question of [
      "Am I right that I'm still living in Porto?",
      "tell me which city I live in",
      "Should the job in Vienna fall through, I'll stay in Munich.",
      "Going vegan is something I keep considering.",
    ])
      expect(contents(question), question).toEqual([]);
  });
});
