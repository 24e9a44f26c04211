/**
 * Superseding by topic (topic.ts, consolidation.ts): memories in the user's own words end the
 * memory they contradict, and nothing else. Pairs outside the judged set.
 */
import { describe, expect, it } from "vitest";
import { consolidateOffline } from "./consolidation";
import { aboutSomeoneElse, attributeClasses, restates, sharedTopic } from "./topic";

function decide(candidate: string, stored: string, title = "Stored") {
  return consolidateOffline({
    candidate: { title: "New", content: candidate, type: "personal" },
    existing: [{ id: "m1", title, content: stored, type: "personal", similarity: 0.6 }],
  }).action;
}

describe("supersede by topic", () => {
  it.each([
    ["Has properly quit smoking", "Is a smoker"],
    ["Got married in September", "Is single"],
    ["Sold the Corolla", "Drives a Toyota Corolla"],
    ["Was laid off by Acme", "Works at Acme"],
    ["Broke up with Maya", "Has a girlfriend named Maya"],
    ["Got a place in Windsor", "Lives in Detroit"],
    ["Walked away from law", "Works as a lawyer"],
  ])("%j supersedes %j", (candidate, stored) => {
    expect(decide(candidate, stored)).toBe("SUPERSEDE");
  });

  it.each([
    // sister topics are not one topic
    ["Stopped drinking coffee", "Likes tea"],
    ["Sold my old guitar", "Plays piano"],
    ["No longer plays tennis", "Plays golf on Sundays"],
    // an added preference or possession does not contradict
    ["Loves coffee", "Likes tea"],
    ["Has two cats", "Has a dog named Rex"],
    // someone else's change, or a change of something else
    ["Mum got promoted to branch manager", "Works as a software engineer"],
    ["Sold the house in Leeds", "Sister lives in Leeds"],
    ["Moved to the night shift", "Lives in Oslo"],
    ["Joined a gym", "Works at Intel"],
    ["Left the choir", "Plays bass in a band"],
    ["Quit the book club", "Loves mystery novels"],
  ])("%j does not supersede %j", (candidate, stored) => {
    expect(decide(candidate, stored)).toBe("ADD");
  });

  it("does not supersede with a restatement of the stored value", () => {
    expect(decide("Moved in with my partner in Berlin", "Lives in Berlin")).not.toBe("SUPERSEDE");
    expect(restates("Moved in with my partner in Berlin", "Lives in Berlin")).toBe(true);
  });

  it("finds one topic through a derivation, not through a sister word", () => {
    expect(sharedTopic("Has quit smoking", "Is a smoker")).toBe("smoking");
    expect(sharedTopic("Walked away from law", "Works as a lawyer")).toBe("law");
    expect(sharedTopic("Stopped drinking coffee", "Likes tea")).toBeUndefined();
    expect(sharedTopic("Sold the car", "Is a caterer")).toBeUndefined();
  });

  it("classes single-valued attributes, and knows a memory about someone else", () => {
    expect([...attributeClasses("Got married in September")]).toEqual(["relationship"]);
    expect([...attributeClasses("Has been in a chalet near Lucerne since September")]).toEqual(["home"]);
    expect([...attributeClasses("Signed with Nestlé")]).toEqual(["employer"]);
    expect([...attributeClasses("Joined a gym")]).toEqual([]);
    expect(aboutSomeoneElse("Sister Maya lives in Lisbon")).toBe(true);
    expect(aboutSomeoneElse("Mum got promoted")).toBe(true);
    expect(aboutSomeoneElse("Sold the Corolla")).toBe(false);
  });
});

describe("supersede by topic, round 6: ends of possessions and memberships, acronyms, a preference over", () => {
  it.each([
    ["Cancelled my Netflix subscription", "Subscribes to Netflix"],
    ["Traded in the Clio for a Golf", "Drives a Renault Clio"],
    ["Bike got stolen", "Rides a bike to work"],
    ["Called it a day with Tom in June", "Has a boyfriend named Tom"],
    ["Was made redundant from IBM", "Works at International Business Machines"],
    ["No longer takes the statins", "Takes statins for cholesterol"],
  ])("%j supersedes %j", (candidate, stored) => {
    expect(decide(candidate, stored)).toBe("SUPERSEDE");
  });

  it.each([
    // the end of something else, or someone else's
    ["Cancelled the dentist appointment", "Has a membership at PureGym"],
    ["Traded in the Clio for a Golf", "Plays golf on Sundays"],
    ["Sister's bike got stolen", "Rides a bike to work"],
    ["Was made redundant from IBM", "Works at Jaguar Land Rover"],
    // an acronym that is no name's initials
    ["Quit the PTA", "Works at Pfizer"],
  ])("%j does not supersede %j", (candidate, stored) => {
    expect(decide(candidate, stored)).not.toBe("SUPERSEDE");
  });

  it("finds an acronym's name through its initials", () => {
    expect(sharedTopic("Left JLR", "Works at Jaguar Land Rover")).toBe("jlr");
    expect(sharedTopic("Works at Jaguar Land Rover", "Left JLR")).toBe("jlr");
    expect(sharedTopic("Left BMW", "Works at Jaguar Land Rover")).toBeUndefined();
  });

  it("ends a liking of what the user now prefers something over, and nothing else", () => {
    const decidePreference = (candidate: string, stored: string) =>
      consolidateOffline({
        candidate: { title: "Preference", content: candidate, type: "preference" },
        existing: [{ id: "m1", title: "Travel preference", content: stored, type: "preference", similarity: 0.6 }],
      }).action;
    expect(decidePreference("Prefers a cabin in the woods over a city break", "Loves city breaks")).toBe("SUPERSEDE");
    expect(decidePreference("Prefers trains over planes", "Prefers planes for long trips")).toBe("SUPERSEDE");
    expect(decidePreference("Prefers a cabin in the woods over a city break", "Loves walks in the woods")).not.toBe(
      "SUPERSEDE",
    );
    expect(decidePreference("Prefers trains over planes", "Dislikes planes")).not.toBe("SUPERSEDE");
    expect(decidePreference("Prefers trains over planes", "Sister loves planes")).not.toBe("SUPERSEDE");
  });
});

describe("supersede by topic, round 6: an activity ended, a one-word denial", () => {
  it.each([
    ["Has quit smoking", "Smokes after dinner"],
    ["Hasn't had a drink since June", "Drinks beer at weekends"],
    ["Gave up drinking in the spring", "Drinks red wine"],
    ["Is not diabetic", "Has type 1 diabetes"],
    ["Is not allergic", "Has a pollen allergy"],
  ])("%j supersedes %j", (candidate, stored) => {
    expect(decide(candidate, stored)).toBe("SUPERSEDE");
  });

  it.each([
    // the activity has an object: it ends only that
    ["Stopped drinking coffee", "Drinks tea every morning"],
    ["No longer plays tennis", "Plays golf on Sundays"],
    ["No longer lives in Denver", "Lives in Lisbon"],
    ["No longer works for Acme", "Works at Globex"],
    // someone else's, or a denial of something else
    ["Has quit smoking", "Dad smokes a pipe"],
    ["Is not diabetic", "Has asthma"],
    // a dwelling the user does not live in is no home
    ["Bought a flat in Leeds as an investment", "Lives in York"],
  ])("%j does not supersede %j", (candidate, stored) => {
    expect(decide(candidate, stored)).not.toBe("SUPERSEDE");
  });
});
