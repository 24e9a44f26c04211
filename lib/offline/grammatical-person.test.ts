import { describe, expect, it } from "vitest";
import { toSecondPerson, toThirdPerson } from "./grammatical-person";

describe("toThirdPerson", () => {
  it("turns the user's own words into memory phrasing", () => {
    expect(toThirdPerson("call my mom and remind me")).toBe("call their mom and remind them");
    expect(toThirdPerson("I am sure I'm right")).toBe("they are sure they're right");
    expect(toThirdPerson("My mom, not Myriam's")).toBe("Their mom, not Myriam's");
  });
});

describe("toSecondPerson", () => {
  it.each([
    ["Prefers green tea", "you prefer green tea"],
    ["Prefers green tea.", "you prefer green tea"],
    ["Is allergic to peanuts", "you are allergic to peanuts"],
    ["Has a dog named Rex", "you have a dog named Rex"],
    ["Studies Spanish", "you study Spanish"],
    ["Watches anime on Fridays", "you watch anime on Fridays"],
    ["Needs to call their mom by 2026-12-04", "you need to call your mom by 2026-12-04"],
    ["Plans to visit my parents", "you plan to visit your parents"],
    ["Loves my dog", "you love your dog"],
    ["Would like to learn Spanish", "you would like to learn Spanish"],
    ["Moved to Berlin in 2024", "you moved to Berlin in 2024"],
    ["I prefer green tea", "you prefer green tea"],
    ["I am a nurse", "you are a nurse"],
    ["I'm vegetarian", "you're vegetarian"],
    ["My sister's name is Maya", "your sister's name is Maya"],
    ["Sister's name is Maya", "your sister's name is Maya"],
    ["Favorite color is blue", "your favorite color is blue"],
    ["The user prefers green tea", "you prefer green tea"],
    ["The user's sister is Maya", "your sister is Maya"],
    ["User lives in Berlin with their partner", "you live in Berlin with your partner"],
    ["Working on a novel...", undefined],
    ["Maya is a doctor", undefined],
  ])("rewrites %j as %j", (memory, expected) => {
    expect(toSecondPerson(memory)).toBe(expected);
  });
});
