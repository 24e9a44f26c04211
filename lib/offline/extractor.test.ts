import { describe, expect, it } from "vitest";
import { titleSchema } from "@/lib/chat/title-prompt";
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
    // "next Friday" is the Friday of next week (docs/extraction.md § Dates), not the nearest one.
    ["remind me to call the plumber by next Friday", "Needs to call the plumber by 2026-12-11", "2026-12-11"],
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

  it("titles one word longer than 100 characters with its first 100 (it used to fail the title schema)", () => {
    for (const word of ["a".repeat(15_000), "我喜欢徒步旅行".repeat(30)]) {
      const { title } = titleConversationOffline([{ role: "user", content: word }]);
      expect(title.length).toBe(100);
      expect(titleSchema.safeParse({ title }).success).toBe(true);
      expect(word.toUpperCase().startsWith(title.toUpperCase())).toBe(true);
    }
  });
});

describe("extractMemoriesOffline on long input", () => {
  it("a sentence longer than the bound is read in pieces and the other sentences as before", () => {
    const filler = "and then we talked about nothing much at all ".repeat(20);
    const { memories } = extractMemoriesOffline({
      currentDate: "2026-12-01",
      userMessage: `I live in Lisbon. ${filler}and that is all`,
    });
    expect(memories.map((memory) => memory.content)).toContain("Lives in Lisbon");
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

describe("extractMemoriesOffline: round 6 — presence 'now', corrections, terse news, promotions, choices, medication", () => {
  const contents = (userMessage: string) => extract(userMessage).map((m) => `${m.title}: ${m.content}`);

  it.each([
    ["FYI: we're in Ljubljana now.", "Home: Lives in Ljubljana"],
    ["I'm now up in Inverness.", "Home: Lives in Inverness"],
    ["Swapped the suburbs for the coast: I'm on Gozo now, just outside Victoria.", "Home: Lives in Gozo"],
    ["relocated. tampere now.", "Home: Lives in Tampere"],
    ["Been up in Aberdeen since March, the Leeds house is sold.", "Home: Lives in Aberdeen"],
    ["I've been in Valencia since last year.", "Home: Lives in Valencia"],
  ])("reads presence for good, %j, as the home", (message, expected) => {
    expect(contents(message)[0]).toBe(expected);
  });

  it.each([
    "I might be in Ljubljana next month.",
    "Am I in Ljubljana now?",
    "I'm in Ljubljana right now, back on Friday.",
    "I'm in Ljubljana now for a conference.",
    "Just landed, I'm in Ljubljana now.",
    "I'm in Ljubljana.", // no "now": as often a trip
    "tampere now.", // no move in the message
    "haven't moved. tampere now.",
    "I've been in Valencia since Monday.",
    "If I'm in Valencia now, it's raining.",
  ])("reads no home from %j", (message) => {
    expect(contents(message).filter((c) => c.startsWith("Home"))).toEqual([]);
  });

  it.each([
    ["You have me down as living in Leipzig, but it's Dresden.", "Home: Lives in Dresden"],
    ["You've got me down as working at Siemens, but it's actually Bosch.", "Workplace: Works at Bosch"],
    ["You've put me down as a dentist, but I'm a vet.", "Occupation: Works as a vet"],
    ["Quick correction: it's Nokia I work for, not Siemens.", "Workplace: Works at Nokia"],
    ["It's Dresden we live in, not Leipzig.", "Home: Lives in Dresden"],
  ])("reads the correction %j", (message, expected) => {
    expect(contents(message)).toEqual([expected]);
  });

  it.each([
    "Am I down as Leipzig?",
    "You've got me down as living in Leipzig, but is it Dresden?",
    "If you've got me down as living in Leipzig, change it.",
    "Is it Nokia I work for?",
  ])("reads no correction from %j", (message) => {
    expect(contents(message)).toEqual([]);
  });

  it.each([
    ["New job at Siemens from next week :)", "Workplace: Works at Siemens"],
    ["got a new job with nokia as of tuesday", "Workplace: Works at nokia"],
    ["New role: a data analyst.", "Occupation: Works as a data analyst"],
    ["Started at Google on Monday.", "Workplace: Works at Google"],
    ["I just started at Brightwell Academy last week.", "Workplace: Works at Brightwell Academy"],
    ["Acme promoted me to head of design in May.", "Occupation: Works as head of design"],
    ["They bumped me up to shift supervisor at Tesco, finally.", "Occupation: Works as shift supervisor at Tesco"],
  ])("reads the job news %j", (message, expected) => {
    expect(contents(message)).toEqual([expected]);
  });

  it.each([
    "A new job at Siemens would be nice.",
    "New job at Siemens?",
    "If I got a new job at Siemens, I'd move.",
    "I started at Oxford in 2019.", // a place, and a past episode
    "I started at Pilates on Monday.", // not an organisation
    "They moved me up to the top floor.",
    "They moved me to the Leeds office.",
    "Did they promote me to manager?",
    "I'm thinking they might promote me to manager.",
  ])("reads no job from %j", (message) => {
    expect(contents(message).filter((c) => /^(?:Workplace|Occupation)/.test(c))).toEqual([]);
  });

  it("does not read 'over the summer' as a comparison", () => {
    expect(contents("They promoted me over the summer, so no more night shifts for me.")).toEqual([]);
  });

  it("takes 'I'd pick X over Y any day' as a present preference, not a hedge", () => {
    expect(
      extract("I'd choose a cabin in the woods over a city break any day.").map((m) => [m.type, m.content]),
    ).toEqual([["preference", "Prefers a cabin in the woods over a city break"]]);
    expect(contents("I'd pick a cabin in the woods.")).toEqual([]);
    expect(contents("Would I pick a cabin over a city break any day?")).toEqual([]);
  });

  it("reads a switch of allegiance, a spouse named 'now', a goal after a colon, and a must", () => {
    expect(contents("Switched my allegiance to Celtic.")).toEqual(["Preference: Now supports Celtic"]);
    expect(contents("Changed sides to Labour this election.")).toEqual(["Preference: Now supports Labour"]);
    expect(contents("Ines is my wife now!")).toEqual(["Relationship status: Is married to Ines"]);
    expect(contents("Tomas's my fiancé.")).toEqual(["Relationship status: Is engaged to Tomas"]);
    expect(contents("Ines is my wife's sister.")).not.toContain("Relationship status: Is married to Ines");
    expect(contents("Is Ines my wife now?")).toEqual([]);
    expect(extract("My goal this spring: run a sub-50 10k.").map((m) => [m.type, m.content])).toEqual([
      ["goal", "Goal is to run a sub-50 10k"],
    ]);
    expect(contents("Goal for next year: not sure yet.")).toEqual([]);
    expect(extract("Reading before bed is non-negotiable for me.").map((m) => m.content)).toEqual([
      "Insists on reading before bed",
    ]);
  });

  it("reads stopping medication, and not coming off anything else", () => {
    expect(contents("The consultant has taken me off the statins.")).toEqual(["Medication: No longer takes statins"]);
    expect(contents("I came off the antidepressants in June.")).toEqual([
      "Medication: No longer takes antidepressants in June",
    ]);
    expect(contents("I came off the motorway at junction 4.")).toEqual([]);
    expect(contents("Has my GP taken me off the statins?")).toEqual([]);
  });

  it("reads the first of two diets compared, and a diary age after 'Spent'", () => {
    expect(contents("These days I'm more vegetarian than vegan.")).toEqual(["Diet: Is vegetarian"]);
    expect(contents("Spent my 40th birthday on a train, of all things.")).toEqual(["Age: Is 40 years old"]);
    expect(contents("Spent my dad's 70th birthday in Rome.")).toEqual([]);
  });

  it("stores a parent named without 'my', and a mate, about them", () => {
    expect(contents("Mum turns 70 in March.")).toEqual(["Mum: Mum turns 70 in March"]);
    expect(contents("My old mate Priya's moved to Perth.")).toEqual([
      "Old mate Priya: Old mate Priya has moved to Perth",
    ]);
  });

  it("keeps a closing emoticon out of the value, and a word ending in x in it", () => {
    expect(contents("I work at Globex :)")).toEqual(["Workplace: Works at Globex"]);
    expect(contents("I work at Globex")).toEqual(["Workplace: Works at Globex"]);
  });
});

describe("extractMemoriesOffline: round 6 — a new occupation after a job ended, a posting's place, a corrected condition", () => {
  const contents = (userMessage: string) => extract(userMessage).map((m) => `${m.title}: ${m.content}`);

  it("reads 'I'm a X now' as the occupation only after the end of a job", () => {
    expect(contents("Quit my job at the bank — I'm a yoga teacher now.")).toContain(
      "Occupation: Works as a yoga teacher",
    );
    expect(contents("I'm a yoga teacher now.")).toEqual(["Self-description: Is a yoga teacher"]);
    expect(contents("Quit my job at the bank, I'm a mess.")).not.toContain("Occupation: Works as a mess");
  });

  it("resolves 'that's where I'm living' to a posting's place, not its month, and drops how long", () => {
    expect(
      contents("The firm sent me to the Oslo branch in March, so that's where I'm living for the next year."),
    ).toEqual(["Home: Lives in Oslo"]);
    expect(contents("They posted me to Oslo in March, that's where I'm based.")).toEqual(["Home: Lives in Oslo"]);
  });

  it("reads 'I'm not X' as a correction and 'not X anymore' as an end", () => {
    expect(contents("I'm not diabetic, that's my brother.")[0]).toBe("Diet: Is not diabetic");
    expect(contents("I'm not vegan anymore.")).toEqual(["Diet: Is no longer vegan"]);
    expect(contents("Am I diabetic?")).toEqual([]);
  });
});

describe("extractMemoriesOffline: round 6 — a demonym after a dwelling", () => {
  const contents = (userMessage: string) => extract(userMessage).map((m) => `${m.title}: ${m.content}`);

  it("reads 'we're officially <demonym>' as living where the dwelling is", () => {
    expect(contents("Got the keys to a flat in Leeds, so we're officially Yorkshiremen.")).toEqual([
      "Home: Lives in Leeds",
    ]);
  });

  it.each([
    "I'm officially a Glaswegian.", // no dwelling named: the demonym alone names no place here
    "We bought a flat in Leeds as an investment, so we're officially landlords.",
    "We bought a flat in Leeds as an investment, so we're officially Yorkshiremen.",
    "If we get the flat in Leeds, we're officially Yorkshiremen.",
    "We got a flat in Leeds. Are we officially Yorkshiremen?",
  ])("reads no home from %j", (message) => {
    expect(contents(message).filter((c) => c.includes("Lives in"))).toEqual([]);
  });
});

describe("extractMemoriesOffline: round 6 precision probes (sentences outside the set that the first version stored wrongly)", () => {
  const contents = (userMessage: string) => extract(userMessage).map((m) => `${m.title}: ${m.content}`);

  it.each([
    ["I'm in Rome now, flying home Sunday.", []], // travel; "home" after a verb of going is the way home
    ["You have me down as living in Paris, but it's complicated.", []],
    ["New job: none yet, still looking.", []],
    ["My new job at Google starts soon.", []],
    ["Goal for today: survive.", []],
    ["Cancelled the trip to Rome.", []],
    ["Traded stories with an old friend.", []],
    ["Called it a day at work early.", []],
    ["Dad turns the music up too loud.", []],
    ["I'm not hungry.", []],
    ["Been in Berlin since Christmas for the project.", []], // a stay for a project
  ])("%j stores %j", (message, expected) => {
    expect(contents(message)).toEqual(expected);
  });

  it("reads no medication the user stopped from someone else's tablets", () => {
    expect(contents("My vet has taken me off the dog's tablets.").filter((c) => c.startsWith("Medication"))).toEqual(
      [],
    );
  });

  it("reads no home from a terse place after moving a thing", () => {
    expect(contents("moved the sofa. lounge now.").filter((c) => c.includes("Lives in"))).toEqual([]);
  });
});

describe("extractMemoriesOffline: coordinated predicates", () => {
  const contents = (message: string) => extract(message).map((memory) => memory.content);

  it.each([
    ["I'm vegetarian and allergic to peanuts", ["Is vegetarian", "Is allergic to peanuts"]],
    ["I am vegetarian, and allergic to peanuts", ["Is vegetarian", "Is allergic to peanuts"]],
    ["I'm vegetarian as well as allergic to peanuts", ["Is vegetarian", "Is allergic to peanuts"]],
    ["I'm lactose intolerant but not vegan", ["Is lactose intolerant", "Is not vegan"]],
    ["I live in Leeds and work at Roche", ["Lives in Leeds", "Works at Roche"]],
    ["I live in Leeds, work at Roche and love climbing", ["Lives in Leeds", "Works at Roche", "Loves climbing"]],
    ["I love coffee but hate tea", ["Loves coffee", "Dislikes tea"]],
    ["I'm 34 and live in Porto", ["Is 34 years old", "Lives in Porto"]],
  ])("%j states one fact per predicate", (message, expected) => {
    expect(contents(message)).toEqual(expected);
    for (const memory of extract(message)) expect(memory.evidence[0]?.quote).toBe(message);
  });

  it.each([
    ["I love salt and pepper chips", ["Loves salt and pepper chips"]],
    ["I live in Bosnia and Herzegovina", ["Lives in Bosnia and Herzegovina"]],
    ["My brother and I run a bakery", 1],
    ["I'm allergic to peanuts and shellfish", ["Is allergic to peanuts and shellfish"]],
    ["I like hiking and swimming", ["Likes hiking and swimming"]],
    ["I have a dog and two cats", 1],
  ] as const)("%j stays one memory (the coordination is inside one thing)", (message, expected) => {
    if (typeof expected === "number") expect(extract(message)).toHaveLength(expected);
    else expect(contents(message)).toEqual(expected);
  });

  it.each([
    "Am I vegetarian and allergic to peanuts?",
    "If I were vegetarian and allergic to peanuts, what would I eat?",
    "You said I'm vegetarian and allergic to peanuts?",
  ])("%j: a question or hypothetical stays nothing, coordinated or not", (message) => {
    expect(extract(message)).toEqual([]);
  });
});
