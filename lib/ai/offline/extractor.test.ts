import { describe, expect, it } from "vitest";
import { extractMemoriesOffline, titleConversationOffline } from "./extractor";

/** A Monday. */
const currentDate = "2026-11-30";
const extract = (userMessage: string) => extractMemoriesOffline({ currentDate, userMessage }).memories;
const summary = (userMessage: string) =>
  extract(userMessage).map(({ type, content, deadline, isActionable }) => ({ type, content, deadline, isActionable }));

describe("extractMemoriesOffline", () => {
  it.each([
    ["I prefer green tea", "preference", "Prefers green tea"],
    ["I really love hiking in the mountains!", "preference", "Loves hiking in the mountains"],
    ["I don't like mushrooms", "preference", "Dislikes mushrooms"],
    ["I can't stand loud music", "preference", "Dislikes loud music"],
    ["My favorite color is blue", "preference", "Favorite color is blue"],
    ["Jazz is my favourite music", "preference", "Favorite music is Jazz"],
    ["I'm a huge fan of Studio Ghibli", "preference", "Is a fan of Studio Ghibli"],
    ["My goal is to run a marathon", "goal", "Goal is to run a marathon"],
    ["I want to learn Spanish", "goal", "Wants to learn Spanish"],
    ["I'm trying to sleep more", "goal", "Is trying to sleep more"],
    ["I plan to visit my parents", "goal", "Plans to visit their parents"],
    ["My sister's name is Maya", "personal", "Sister's name is Maya"],
    ["My best friend is called Sam Lee, by the way", "personal", "Best friend's name is Sam Lee"],
    ["My name is Alex", "personal", "Name is Alex"],
    ["I live in Berlin", "personal", "Lives in Berlin"],
    ["I work at Acme Corp", "personal", "Works at Acme Corp"],
    ["I work as a nurse", "personal", "Works as a nurse"],
    ["I am a software engineer", "personal", "Is a software engineer"],
    ["I have a cat named Mochi", "personal", "Has a cat named Mochi"],
    ["I'm allergic to peanuts", "fact", "Is allergic to peanuts"],
    ["I’m vegetarian", "fact", "Is vegetarian"],
  ])("recognises %j", (message, type, content) => {
    expect(summary(message)).toEqual([{ type, content, deadline: null, isActionable: false }]);
  });

  it.each([
    ["remind me to call mom by Friday", "Needs to call mom by 2026-12-04", "2026-12-04"],
    ["Can you remind me to pay rent on Dec. 5?", "Needs to pay rent by 2026-12-05", "2026-12-05"],
    ["Please remind me to water the plants tomorrow", "Needs to water the plants by 2026-12-01", "2026-12-01"],
    ["I need to submit my report by 2026-12-15", "Needs to submit their report by 2026-12-15", "2026-12-15"],
    ["remind me to stretch", "Needs to stretch", null],
  ])("turns %j into an actionable memory", (message, content, deadline) => {
    expect(summary(message)).toEqual([{ type: "actionable", content, deadline, isActionable: true }]);
  });

  it("records an appointment as an event on its date", () => {
    expect(summary("I have a dentist appointment on Thursday")).toEqual([
      {
        type: "event",
        content: "Has a dentist appointment on 2026-12-03",
        deadline: "2026-12-03",
        isActionable: false,
      },
    ]);
  });

  it("splits compound sentences into one memory per clause, each quoting its clause", () => {
    const memories = extract("I prefer green tea and my sister's name is Maya. Also, I live in Oslo!");
    expect(memories.map((memory) => [memory.content, memory.evidence])).toEqual([
      ["Prefers green tea", [{ role: "user", quote: "I prefer green tea" }]],
      ["Sister's name is Maya", [{ role: "user", quote: "my sister's name is Maya" }]],
      ["Lives in Oslo", [{ role: "user", quote: "Also, I live in Oslo" }]],
    ]);
  });

  it.each([
    "What's the weather like tomorrow?",
    "I want to ask you something",
    "I need to relax",
    "I love it!",
    "I'm a bit tired",
    "Thanks, that helps",
    "",
  ])("finds nothing durable in %j", (message) => {
    expect(extract(message)).toEqual([]);
  });

  it("gives short titles and tags from the concept table", () => {
    const [tea, sister] = extract("I prefer green tea and my sister's name is Maya");
    expect(tea).toMatchObject({ title: "Drink preference", tags: ["preference", "drink"] });
    expect(sister).toMatchObject({ title: "Sister's name", tags: ["personal", "family", "name"] });
  });

  it("never returns duplicates or more than ten memories", () => {
    const many = Array.from({ length: 12 }, (_, i) => `I like topic ${i}.`).join(" ");
    expect(extract(`I like tea. I like tea. ${many}`)).toHaveLength(10);
    expect(extract("I like tea. I like tea.")).toHaveLength(1);
  });
});

describe("titleConversationOffline", () => {
  it.each([
    ["Hi! Can you help me plan a trip to Japan next spring?", "Help me plan a trip to Japan next"],
    ["what's a good recipe for banana bread", "What's a good recipe for banana bread"],
    ["Hello", "Hello"],
  ])("titles %j as %j", (content, title) => {
    expect(titleConversationOffline([{ role: "user", content }])).toEqual({ title });
  });

  it("uses the first user message and never exceeds eight words", () => {
    const { title } = titleConversationOffline([
      { role: "assistant", content: "Welcome back!" },
      { role: "user", content: "one two three four five six seven eight nine ten" },
    ]);
    expect(title).toBe("One two three four five six seven eight");
  });
});
