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
    ["I plan to visit my parents", "goal", "Plans to visit my parents"],
    ["I love my dog", "preference", "Loves my dog"],
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
    ["I need to submit my report by 2026-12-15", "Needs to submit report by 2026-12-15", "2026-12-15"],
    ["I need to renew my passport by 3 March 2027", "Needs to renew passport by 2027-03-03", "2027-03-03"],
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

describe("extractMemoriesOffline: questions, hypotheticals and changes of state", () => {
  const contents = (userMessage: string) => extract(userMessage).map((memory) => memory.content);

  // Each of these became a "fact" before: "What is my favourite city?" → "Favorite city is What".
  it.each([
    "What is my favourite city?",
    "What is my favorite food?",
    "Which is my favorite city, Lisbon or Porto?",
    "Who are my favorite authors?",
    "I'm allergic to what again?",
    "I work at which company, do you remember?",
    "what is my favourite movie",
    "Do I like green tea?",
    "Am I allergic to anything?",
  ])("stores no memory for the question %j", (message) => {
    expect(extract(message)).toEqual([]);
  });

  it.each([
    "If I moved to Berlin, would I need a visa?",
    "Suppose I live in Rome and I work at the FAO.",
    "Let's say I live in Chicago.",
    "Imagine I lived in Tokyo.",
    "Pretend I'm a vegetarian and plan a menu for me.",
    "If I were the CEO, I would cancel all Friday meetings.",
    "I might move to Berlin someday.",
    "Maybe I should learn Italian.",
    "Should I move to Porto?",
  ])("stores no memory for the hypothetical %j", (message) => {
    expect(extract(message)).toEqual([]);
  });

  it("still takes a reminder asked as a question, and a statement after a question", () => {
    expect(summary("Can you remind me to call the plumber tomorrow?")).toEqual([
      {
        type: "actionable",
        content: "Needs to call the plumber by 2026-12-01",
        deadline: "2026-12-01",
        isActionable: true,
      },
    ]);
    expect(contents("What's my favourite city? Anyway, I'm allergic to cats.")).toEqual(["Is allergic to cats"]);
  });

  it.each([
    ["I moved from Lisbon to Porto last month.", "Lives in Porto"],
    ["I just moved to Munich!", "Lives in Munich"],
    ["I've relocated to San Francisco.", "Lives in San Francisco"],
    ["Just moved into a new apartment in Seattle.", "Lives in Seattle"],
    ["Finally moved out of Manchester — I live in Leeds now.", "Lives in Leeds"],
    ["I now live in Porto.", "Lives in Porto"],
    ["I'm living in Denver these days.", "Lives in Denver"],
    ["Correction: I live in Porto, not Lisbon.", "Lives in Porto"],
  ])("states the move or the new home in %j as where the user lives", (message, content) => {
    expect(extract(message).map(({ title, content }) => ({ title, content }))).toEqual([{ title: "Home", content }]);
  });

  it("keeps a move still to come as a plan, not a home", () => {
    expect(summary("I'm moving to Porto next month.")).toEqual([
      { type: "goal", content: "Plans to move to Porto next month", deadline: null, isActionable: false },
    ]);
  });

  it.each([
    ["I don't live in Lisbon anymore.", "No longer lives in Lisbon"],
    ["I no longer live in Denver", "No longer lives in Denver"],
    ["I no longer work at Acme Corp.", "No longer works at Acme Corp"],
    ["I'm not vegetarian anymore — I eat fish and chicken now.", "Is no longer vegetarian"],
    ["Turns out I'm not allergic to penicillin after all.", "Is not allergic to penicillin"],
    ["I'm not a teacher anymore.", "Is no longer a teacher"],
    ["I don't like coffee anymore.", "Dislikes coffee"],
  ])("states the negation %j so it can supersede", (message, content) => {
    expect(contents(message)).toEqual([content]);
  });

  it.each([
    ["These days I work at Globex.", "Works at Globex"],
    ["I work as a midwife now.", "Works as a midwife"],
    ["I'm 35 now, just had my birthday.", "Is 35 years old"],
    ["I prefer coffee now.", "Prefers coffee"],
    ["My favorite color is green these days.", "Favorite color is green"],
    ["Actually, my sister's name is Mia, not Maya.", "Sister's name is Mia"],
  ])("drops 'now' and corrections from %j", (message, content) => {
    expect(contents(message)).toEqual([content]);
  });

  it.each([
    ["My sister Maya lives in Lisbon.", "Sister Maya", "Sister Maya lives in Lisbon"],
    [
      "My brother Tom works at Google as a data scientist.",
      "Brother Tom",
      "Brother Tom works at Google as a data scientist",
    ],
    ["My mom is allergic to cats.", "Mom", "Mom is allergic to cats"],
    ["My dad just moved to Florida.", "Dad", "Dad just moved to Florida"],
    ["My partner, Alex, is a chef.", "Partner Alex", "Partner Alex is a chef"],
    ["My son's favorite food is pizza.", "Son's favorite food", "Son's favorite food is pizza"],
  ])("stores %j about the other person, not as the user's own", (message, title, content) => {
    expect(extract(message).map((m) => ({ type: m.type, title: m.title, content: m.content }))).toEqual([
      { type: "personal", title, content },
    ]);
  });

  it("gives a like and a dislike of one topic the same title", () => {
    expect(extract("I like coffee. I don't like coffee anymore.").map((m) => m.title)).toEqual([
      "Drink preference",
      "Drink preference",
    ]);
  });
});

describe("extractMemoriesOffline: general phrasings of statements and changes (second round)", () => {
  const contents = (userMessage: string) => extract(userMessage).map((memory) => memory.content);

  it.each([
    ["Honestly I adore old French films.", "Adores old French films"],
    ["To be honest, I prefer tea.", "Prefers tea"],
    ["Long term, I hope to move back to Chile.", "Hopes to move back to Chile"],
    ["This year I want to read 30 books.", "Wants to read 30 books"],
  ])("reads past a stance or time-frame opening in %j", (message, content) => {
    expect(contents(message)).toEqual([content]);
  });

  it.each([
    ["I am lactose intolerant, just so you know.", "Is lactose intolerant"],
    ["I'm vegan now.", "Is vegan"],
    ["I'm a nurse, for the record.", "Is a nurse"],
  ])("drops an aside or 'now' at the end of %j", (message, content) => {
    expect(contents(message)).toEqual([content]);
  });

  it.each([
    ["I'm not a fan of crowded beaches.", "Dislikes crowded beaches"],
    ["I'm not a Lakers fan anymore.", "Is no longer a fan of Lakers"],
    ["I'm no longer a fan of reality TV.", "Is no longer a fan of reality TV"],
    ["I'm a huge Lakers fan.", "Is a fan of Lakers"],
  ])("states being a fan, or no longer one, in %j as a preference", (message, content) => {
    expect(extract(message).map((m) => [m.type, m.content])).toEqual([["preference", content]]);
  });

  it.each([
    ["I don't enjoy running anymore since my knee injury.", "Dislikes running"],
    ["I love swimming because it relaxes me.", "Loves swimming"],
  ])("keeps the liked thing, not the reason, in %j", (message, content) => {
    expect(contents(message)).toEqual([content]);
  });

  it("takes 'don't let me forget to …' as a reminder", () => {
    expect(summary("Don't let me forget to call the bank by Friday.")).toEqual([
      {
        type: "actionable",
        content: "Needs to call the bank by 2026-12-04",
        deadline: "2026-12-04",
        isActionable: true,
      },
    ]);
  });

  it.each([
    ["We moved to Lyon over the summer, the kids love it.", "Lives in Lyon"],
    ["We live in Ghent.", "Lives in Ghent"],
    ["I left Oslo and moved to Bergen.", "Lives in Bergen"],
    ["I packed up and moved to Cork last week.", "Lives in Cork"],
    ["I live in Portland, Oregon.", "Lives in Portland, Oregon"],
  ])("states the home in %j", (message, content) => {
    expect(extract(message).map(({ title, content }) => ({ title, content }))).toEqual([{ title: "Home", content }]);
  });

  it("does not give the user a move that someone else made: it is stored about them", () => {
    expect(contents("My brother quit and moved to Perth.")).toEqual(["Brother quit and moved to Perth"]);
  });

  it("splits first-person clauses joined by a comma, but not an opening word from its statement", () => {
    expect(contents("I'm 28, I live in Leeds and I hate cold weather.")).toEqual([
      "Is 28 years old",
      "Lives in Leeds",
      "Dislikes cold weather",
    ]);
    expect(contents("My brother lives in Perth, I live in Sydney.")).toEqual([
      "Brother lives in Perth",
      "Lives in Sydney",
    ]);
    expect(extract("Also, I live in Oslo.").map((m) => m.evidence[0]?.quote)).toEqual(["Also, I live in Oslo"]);
  });

  it.each([
    ["I started a new job at Spotify last week.", "Workplace", "Works at Spotify"],
    ["I just started working as a paramedic.", "Occupation", "Works as a paramedic"],
    ["I just turned 30!", "Age", "Is 30 years old"],
    ["Turned 41 yesterday.", "Age", "Is 41 years old"],
  ])("states the new job or age in %j", (message, title, content) => {
    expect(extract(message).map((m) => ({ title: m.title, content: m.content }))).toEqual([{ title, content }]);
  });

  it.each([
    "If I started a new job at Spotify, would I earn more?",
    "Did I just turn 30?",
    "Should I become a Lakers fan?",
    "Am I not a fan of crowded beaches?",
    "Suppose we moved to Lyon, the kids would love it.",
  ])("still stores nothing for the question or hypothetical %j", (message) => {
    expect(extract(message)).toEqual([]);
  });
});

describe("extractMemoriesOffline: round 4 — diary 'have', comparisons, idioms of liking, favourites corrected through 'it'", () => {
  const contents = (userMessage: string) => extract(userMessage).map((m) => `${m.title}: ${m.content}`);

  it("reads 'Had my …' without a '?' as a diary statement, not an inverted question", () => {
    expect(contents("Had my 29th birthday on Sunday.")).toEqual(["Age: Is 29 years old"]);
    // a "?" or a participle after the subject keeps it a question
    for (const question of ["Had my 29th birthday already?", "Had my brother called by then", "Has my parcel arrived."])
      expect(contents(question), question).toEqual([]);
  });

  it.each([
    ["Cats beat dogs in my book.", "Prefers cats"],
    ["Honestly, rice wins out over pasta for me.", "Prefers rice"],
    ["Chess is better than poker in my opinion.", "Prefers chess"],
    ["Berlin beats Munich for me.", "Prefers Berlin"], // a name keeps its capital
  ])("takes a comparison the user makes for themselves, %j, as a preference", (message, content) => {
    expect(extract(message).map((m) => [m.type, m.content])).toEqual([["preference", content]]);
  });

  it.each([
    "Liverpool beat Arsenal last night.", // a result, no experiencer
    "Tea is better than coffee for sleep.",
    "Is tea better than coffee for me?",
  ])("stores no preference for the comparison %j", (message) => {
    expect(contents(message)).toEqual([]);
  });

  it.each([
    ["Nothing compares to fresh sourdough.", "Loves fresh sourdough"],
    ["There's nothing quite like a hot bath after a long day.", "Loves a hot bath after a long day"],
  ])("takes the idiom %j as a liking", (message, content) => {
    expect(extract(message).map((m) => [m.type, m.content])).toEqual([["preference", content]]);
  });

  it.each([
    "Nothing beats me at chess.",
    "There's nothing like it.",
    "Nothing beats fresh sourdough, right?",
    "You can't beat the price.", // said of a deal as often as of a taste: not read
  ])("stores nothing for %j", (message) => {
    expect(contents(message)).toEqual([]);
  });

  it.each([
    ["Coldplay isn't my favourite band anymore, it's Radiohead.", "Favorite band: Favorite band is Radiohead"],
    ["My favourite season used to be summer, now it's autumn.", "Favorite season: Favorite season is autumn"],
    ["My favourite dish was lasagne, but now it's ramen.", "Favorite dish: Favorite dish is ramen"],
    ["My favourite colour used to be blue, now it's red.", "Favorite colour: Favorite colour is red"],
  ])("reads the new favourite in the correction %j", (message, expected) => {
    expect(contents(message)).toEqual([expected]);
  });

  it("reads no favourite from a denial alone, or from 'it' that names none", () => {
    expect(contents("Coldplay isn't my favourite band anymore.")).toEqual([]);
    expect(contents("It's not my favourite, it's fine.")).toEqual([]);
    // without a change, "it" is the thing, not the favourite
    expect(contents("Arrival isn't my favourite film, it's too slow.")).toEqual([]);
    // "it's" + a participle is "it has"; a place or a time after "it's" is no value
    expect(contents("My favourite city was Paris, but it's changed a lot.")).toEqual([]);
    expect(contents("My favourite podcast isn't on Spotify anymore, it's on YouTube now.")).toEqual([]);
  });
});
