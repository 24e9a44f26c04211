/**
 * The general path (statement-reader.ts) through the extractor, on sentences that are not in the
 * judged set: first-person statements no phrase rule or slot reads, and what must stay unread.
 */
import { describe, expect, it } from "vitest";
import { extractMemoriesOffline } from "./extractor";
import { thirdPersonVerb } from "./grammatical-person";
import { readUserStatement } from "./statement-reader";

const TODAY = "2026-11-30";
const read = (message: string) =>
  extractMemoriesOffline({ currentDate: TODAY, userMessage: message }).memories.map((m) => ({
    type: m.type,
    title: m.title,
    content: m.content,
    deadline: m.deadline,
  }));
const contents = (message: string) => read(message).map((m) => m.content);

describe("the general statement reader", () => {
  it.each([
    ["I've got three kids and a dog.", "Has three kids and a dog"],
    ["We adopted a greyhound last spring.", "Adopted a greyhound last spring"],
    ["I don't drink alcohol any more.", "No longer drinks alcohol"],
    ["Became a grandfather in June!", "Became a grandfather in June"],
    ["I speak fluent Portuguese.", "Speaks fluent Portuguese"],
    ["I stopped eating sugar.", "Stopped eating sugar"],
    ["Maya and I broke up.", "Broke up with Maya"],
    ["Acme laid me off in the spring.", "Was laid off by Acme"],
    ["The keto thing is over for me.", "No longer does the keto thing"],
  ])("stores %j as %j, the user the implied subject", (message, content) => {
    expect(contents(message)).toEqual([content]);
  });

  it("types by cues: a choice is a preference, a dated obligation a deadline, a single-valued attribute its title", () => {
    expect(read("I always take the train to work.")).toEqual([
      { type: "preference", title: "Transport preference", content: "Always takes the train to work", deadline: null },
    ]);
    expect(read("My passport expires on March 3rd.")).toEqual([
      { type: "actionable", title: "Passport", content: "Passport expires on 2027-03-03", deadline: "2027-03-03" },
    ]);
    expect(read("Maya and I broke up.")[0]?.title).toBe("Relationship status");
    expect(read("Acme laid me off in the spring.")[0]?.title).toBe("Workplace");
  });

  it("makes one memory of one sentence's clauses, and reads a sentence only where no rule did", () => {
    expect(contents("We've been renting in Bath since May, we sold the Bristol house.")).toEqual([
      "Has been renting in Bath since May; sold the Bristol house",
    ]);
    // the rule reads the diet; the general path adds nothing to that sentence
    expect(contents("I'm not vegetarian anymore — I eat fish and chicken now.")).toEqual(["Is no longer vegetarian"]);
  });

  it.each([
    // past episodes
    "I had pasta for lunch.",
    "Went to the cinema last night.",
    "I saw a great film yesterday.",
    "I got stuck in traffic this morning.",
    "Ran 5k this morning!",
    // passing states and where the user is right now
    "I'm so tired today.",
    "I'm reading a great book.",
    "I'm at the office.",
    "I'm on the train.",
    "We're in Rome for the weekend.",
    "My car is in the garage.",
    // the conversation, requests, opinions
    "I'll call you later.",
    "Let me check my calendar.",
    "I think you're right.",
    "I agree with you.",
    "I can't remember my password.",
    "I don't think so.",
    "I know what you mean.",
    "Help me write an email to my landlord.",
    "Thanks, that helps a lot.",
    "The weather is lovely.",
    // plans, wishes, modals, the habitual past, what did not happen
    "I might sell my car.",
    "I was thinking of quitting my job.",
    "I'm going to sell the car.",
    "I wonder if I should move.",
    "I'd love a holiday.",
    "I'm not sure what to cook tonight.",
    "I used to live in Madrid.",
    "I never moved to Spain in the end.",
    "Could be worse, I suppose.",
  ])("stores nothing for %j", (message) => {
    expect(read(message)).toEqual([]);
  });

  it("reads nobody else's statement as the user's", () => {
    expect(readUserStatement("Tom sold the car", "Tom sold the car", TODAY)).toBeUndefined();
    expect(readUserStatement("the weather is lovely", "the weather is lovely", TODAY)).toBeUndefined();
    expect(readUserStatement("my sister is a nurse", "my sister is a nurse", TODAY)).toBeUndefined();
  });

  it("conjugates the user's verb in the third person", () => {
    expect(["bike", "go", "carry", "have", "watch", "play"].map(thirdPersonVerb)).toEqual([
      "bikes",
      "goes",
      "carries",
      "has",
      "watches",
      "plays",
    ]);
  });

  it("keeps auxiliaries, modals and past forms grammatical (was 'Wases', 'Haven'ts')", () => {
    expect(
      ["was", "were", "haven't", "don't", "am", "aren't", "had", "did", "can", "won't", "moved", "used"].map(
        thirdPersonVerb,
      ),
    ).toEqual(["was", "was", "hasn't", "doesn't", "is", "isn't", "had", "did", "can", "won't", "moved", "used"]);
    expect(readUserStatement("I was made redundant from Ford", "I was made redundant from Ford.", TODAY)?.content).toBe(
      "Was made redundant from Ford",
    );
    expect(readUserStatement("I haven't smoked since June", "I haven't smoked since June.", TODAY)?.content).toBe(
      "Hasn't smoked since June",
    );
  });
});

describe("the general statement reader, round 6: ends of possessions, definite deadlines", () => {
  it.each([
    ["Finally sold the caravan.", "Sold the caravan"],
    ["Just cancelled my Spotify.", "Cancelled my Spotify"],
    ["Cancelled Audible.", "Cancelled Audible"],
    ["Cancelled my gym membership in June.", "Cancelled my gym membership in June"],
    ["My scooter got stolen outside the station.", "Scooter got stolen outside the station"],
    ["Swapped the Micra for an e-bike in April.", "Swapped the Micra for an e-bike in April"],
    ["Tom and I called it quits last month.", "Called it quits with Tom last month"],
    ["My cousin's emigrated, so it's just us now.", undefined],
  ])("stores %j as %j", (message, content) => {
    const stored = contents(message);
    if (content) expect(stored).toEqual([content]);
    else expect(stored.filter((c) => !/^Cousin\b/.test(c))).toEqual([]);
  });

  it.each([
    "If I sold the caravan, I'd buy a boat.",
    "Should I cancel my Spotify?",
    "I might sell the caravan.",
    "Did my scooter get stolen?",
    "They promoted me in May.", // a pronoun is no employer ("Was promoted by They")
    "I've barely started the report.", // a progress report, not a fact
    "The meeting is due to start.", // "the …" only with a dated obligation
    "The train ends at Brighton.",
    "My car got a flat tyre on the way home.", // an episode, not a new flat
    "My flight was cancelled.",
  ])("stores nothing for %j", (message) => {
    expect(contents(message)).toEqual([]);
  });

  it("reads a dated obligation of 'my/our/the …', with relative deadlines", () => {
    expect(read("The planning appeal has to go in within 10 days of today.")).toEqual([
      {
        type: "actionable",
        title: "Planning appeal",
        content: "Planning appeal has to go in by 2026-12-10",
        deadline: "2026-12-10",
      },
    ]);
    expect(read("My essay's due a week on Wednesday and I've barely started.")).toEqual([
      { type: "actionable", title: "Essay", content: "Essay is due on 2026-12-09", deadline: "2026-12-09" },
    ]);
    expect(read("Our tenancy ends on 14 February, so we need to find a flat.")[0]).toEqual({
      type: "actionable",
      title: "Tenancy",
      content: "Tenancy ends on 2027-02-14",
      deadline: "2027-02-14",
    });
    expect(contents("The appeal has to go in within two weeks, right?")).toEqual([]);
  });
});
