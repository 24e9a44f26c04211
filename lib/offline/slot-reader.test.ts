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

describe("readUserSlot, round 4: permanence, occupation verbs, and changes that did not happen", () => {
  it.each([
    // being somewhere is a home only with a cue of permanence in the sentence
    ["We wound up in Tucson", "We wound up in Tucson, and we're not going anywhere", "Tucson"],
    ["I'm in Lisbon for good", "I'm in Lisbon for good", "Lisbon"],
    ["I'm in London permanently", "I'm in London permanently", "London"],
    ["I'm in Leipzig", "I'm in Leipzig, same apartment as ever", "Leipzig"],
  ])("%j (in %j) is the home", (statement, sentence, value) => {
    expect(readUserSlot(statement, sentence)).toMatchObject({ slot: "home", value, negated: false });
  });

  it.each([
    ["I'm in Leipzig", "I'm in Leipzig"],
    ["We wound up in Tucson", "We wound up in Tucson"],
    ["I'm in Tokyo until Friday", "I'm in Tokyo until Friday, and I'm staying"],
    ["I ended up in Cork last night", "I ended up in Cork last night, and I'm staying"],
    ["We ended up in a bar", "We ended up in a bar, and I'm staying"],
    ["I'm in Paris", "I'm in Paris and I'm staying at the Ritz"],
  ])("%j (in %j) is no home: no permanence, or a stay", (statement, sentence) => {
    expect(readUserSlot(statement, sentence)).toBeUndefined();
  });

  it.each([
    ["I'm tutoring chemistry at a sixth-form college", "a chemistry tutor at a sixth-form college"],
    ["I lecture at a university in Ghent", "a lecturer at a university in Ghent"],
    ["I'm consulting for Accenture", "a consultant for Accenture"],
    ["I'm bartending at a cocktail bar", "a bartender at a cocktail bar"],
  ])("%j names the occupation", (statement, value) => {
    expect(readUserSlot(statement)).toMatchObject({ slot: "occupation", value, negated: false });
  });

  it.each([
    "I'm teaching my nephew at home", // a person taught, no workplace
    "I'm teaching a workshop at the library", // a one-off
    "I'm coaching at the club this weekend",
    "I coach at a tennis club on Saturdays",
    "I'm writing a report at the office", // an activity anyone does at work
    "I'm not teaching at the school anymore",
    "I'm teaching myself Spanish at a language school", // the user is the pupil
    "I coach football at my son's school", // someone else's place
    "I tutor at the library for fun", // a pastime
  ])("%j names no occupation", (statement) => {
    expect(readUserSlot(statement)).toBeUndefined();
  });

  it.each([
    "We bought a place in Bristol but haven't moved in yet",
    "I've yet to move to Boston",
    "I bought a flat in Porto but never moved in",
    "I didn't move to Leeds after all",
  ])("%j is a change that has not happened: no home, and no denial of one", (statement) => {
    expect(readUserSlot(statement)).toBeUndefined();
  });

  it("reads an ordinal birthday as the age only when it is the user's", () => {
    expect(readUserSlot("Celebrated my 52nd birthday on Sunday")).toMatchObject({ slot: "age", value: "52" });
    expect(readUserSlot("Went to my dad's 60th birthday party")).toBeUndefined();
    expect(readUserSlot("Organised our son's 8th birthday")).toBeUndefined();
  });
});
