/** The benchmark's memories and questions, generated deterministically so 100k are mostly distinct. */
import { seededRandom as prng } from "@/core/random";
import type { MemoryType } from "@/db/schema";

export { seededRandom as prng } from "@/core/random";

const pick = <T>(random: () => number, list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;

const SLOTS = {
  name: [
    "Maya",
    "Tom",
    "Priya",
    "Lucas",
    "Aiko",
    "Omar",
    "Sofia",
    "Daniel",
    "Lena",
    "Kwame",
    "Ines",
    "Marco",
    "Yuki",
    "Noah",
    "Amara",
  ],
  relation: [
    "sister",
    "brother",
    "manager",
    "best friend",
    "partner",
    "mother",
    "father",
    "colleague",
    "neighbour",
    "cousin",
    "mentor",
    "landlord",
  ],
  city: [
    "Lisbon",
    "Berlin",
    "Toronto",
    "Osaka",
    "Nairobi",
    "Austin",
    "Edinburgh",
    "Melbourne",
    "Oslo",
    "Bogotá",
    "Seoul",
    "Lyon",
  ],
  food: ["peanuts", "shellfish", "gluten", "dairy", "eggs", "sesame", "soy", "tree nuts", "strawberries", "mushrooms"],
  dish: [
    "ramen",
    "pad thai",
    "lasagne",
    "tacos",
    "sushi",
    "dal",
    "paella",
    "pho",
    "falafel",
    "risotto",
    "curry",
    "dumplings",
  ],
  hobby: [
    "bouldering",
    "sourdough baking",
    "trail running",
    "chess",
    "pottery",
    "birdwatching",
    "salsa dancing",
    "woodworking",
    "cycling",
    "photography",
    "knitting",
    "sailing",
  ],
  language: [
    "Spanish",
    "Japanese",
    "German",
    "Portuguese",
    "Mandarin",
    "French",
    "Italian",
    "Korean",
    "Swahili",
    "Dutch",
  ],
  company: [
    "Northwind",
    "Globex",
    "Initech",
    "Umbrella Health",
    "Acme Robotics",
    "Blue Harbor",
    "Lumen Labs",
    "Quartz Bank",
    "Helio Energy",
    "Pinecone Studio",
  ],
  role: [
    "product manager",
    "backend engineer",
    "data scientist",
    "designer",
    "nurse",
    "teacher",
    "accountant",
    "architect",
    "researcher",
    "sales lead",
  ],
  tool: ["TypeScript", "Postgres", "Figma", "Excel", "Kubernetes", "Rust", "Python", "Notion", "Jira", "Blender"],
  pet: [
    "a cat called Miso",
    "a dog called Pepper",
    "two rabbits",
    "a parrot called Kiwi",
    "a golden retriever called Sunny",
    "a tortoise called Sheldon",
  ],
  month: [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
  ],
  task: [
    "renew my passport",
    "file the tax return",
    "submit the grant proposal",
    "book the dentist",
    "pay the car insurance",
    "send the quarterly report",
    "renew the lease",
    "finish the conference talk",
  ],
  goal: [
    "run a half marathon",
    "learn to play the piano",
    "save for a house deposit",
    "read 30 books this year",
    "get promoted to senior",
    "speak conversational Japanese",
    "cut down on sugar",
    "sleep before midnight",
  ],
  drink: ["oat milk flat whites", "green tea", "black coffee", "sparkling water", "chai", "matcha lattes"],
  music: ["jazz", "lo-fi beats", "classical piano", "synthwave", "folk", "hip hop"],
  condition: ["asthma", "migraines", "a bad knee", "lower back pain", "hay fever", "type 1 diabetes"],
} as const;

type Slot = keyof typeof SLOTS;

const TEMPLATES: readonly [MemoryType, number, string][] = [
  ["personal", 0.9, "I am allergic to {food}."],
  ["personal", 0.7, "My {relation} {name} lives in {city}."],
  ["personal", 0.6, "I live in {city} with {pet}."],
  ["personal", 0.8, "I have {condition} and keep medication with me."],
  ["personal", 0.5, "My {relation} {name}'s birthday is in {month}."],
  ["preference", 0.6, "I prefer {drink} in the morning."],
  ["preference", 0.5, "My favourite dish is {dish}, especially the one near my office in {city}."],
  ["preference", 0.5, "I listen to {music} while I work."],
  ["preference", 0.7, "I avoid {food} and anything cooked with it."],
  ["preference", 0.4, "I like {hobby} on weekends."],
  ["fact", 0.7, "I work at {company} as a {role}."],
  ["fact", 0.6, "At {company} we use {tool} for most projects."],
  ["fact", 0.5, "I have been learning {language} for two years."],
  ["fact", 0.4, "I moved to {city} in {month} last year."],
  ["goal", 0.8, "I want to {goal}."],
  ["goal", 0.6, "This year I would like to get better at {hobby}."],
  ["goal", 0.7, "I plan to visit {name} in {city} in {month}."],
  ["actionable", 0.9, "I need to {task} by the end of {month}."],
  ["actionable", 0.8, "Remind me to call {name} about the {city} trip."],
  ["event", 0.6, "I have a {language} exam in {month}."],
  ["event", 0.5, "{name} and I are running a {hobby} workshop in {month}."],
  ["decision", 0.6, "I decided to switch our team from {tool} to another tool after the outage."],
  ["decision", 0.5, "I chose {city} for the family holiday this summer."],
  ["insight", 0.5, "I focus best in the early morning before meetings."],
  ["context", 0.4, "I am preparing a presentation about {tool} for my {relation}'s team."],
  ["context", 0.5, "I am looking for a new flat in {city} close to a {hobby} club."],
];

const QUESTIONS: readonly string[] = [
  "What should I avoid eating at the restaurant tonight?",
  "Can you suggest a dinner recipe for me?",
  "Where does my {relation} live?",
  "When is {name}'s birthday?",
  "What do I need to get done this month?",
  "Help me plan my weekend.",
  "Which tools do we use at work?",
  "What am I allergic to?",
  "Recommend some music for focusing.",
  "How is my {language} going?",
  "What are my goals for this year?",
  "Draft a message to {name} about the trip.",
  "Any ideas for a gift for my {relation}?",
  "What should I pack for {city}?",
  "Remind me what deadlines I have.",
  "What coffee do I usually drink?",
  "Suggest a workout that is easy on my knee.",
  "Where did I move last year?",
  "What is my job?",
  "Plan a trip to {city} in {month}.",
  "Explain how HNSW indexes work.",
  "Write a haiku about autumn.",
  "What is the capital of Australia?",
  "Summarise the plot of Hamlet in two lines.",
  "How do I make {dish} at home?",
];

function fill(random: () => number, template: string): string {
  return template.replace(/\{(\w+)\}/g, (hole, slot: string) =>
    slot in SLOTS ? pick(random, SLOTS[slot as Slot]) : hole,
  );
}

const DETAILS: readonly string[] = [
  "I mentioned it while talking about {hobby} with {name}.",
  "{name} reminded me of it in {month} {year}.",
  "It has been like this since {year}.",
  "This came up again on a call with my {relation}.",
  "It matters for the {city} plans in {month}.",
  "I wrote it down after a long day at {company}.",
  "It is about {n} times a week at the moment.",
];

function detail(random: () => number): string {
  return fill(random, pick(random, DETAILS))
    .replace("{year}", String(2010 + Math.floor(random() * 17)))
    .replace("{n}", String(1 + Math.floor(random() * 9)));
}

export interface BenchMemory {
  content: string;
  type: MemoryType;
  importance: number;
  ageDays: number;
}

export function generateMemories(seed: number, count: number): BenchMemory[] {
  const random = prng(seed);
  return Array.from({ length: count }, () => {
    const [type, importance, template] = pick(random, TEMPLATES);
    let content = fill(random, template);
    // Most memories carry a detail, so a large user is not made of a few thousand exact repeats.
    if (random() < 0.7) content += ` ${detail(random)}`;
    return {
      content,
      type,
      importance: Math.round(Math.min(1, Math.max(0, importance + (random() - 0.5) * 0.3)) * 100) / 100,
      ageDays: Math.floor(random() * 120),
    };
  });
}

export function generateQuestions(seed: number, count: number): string[] {
  const random = prng(seed);
  return Array.from({ length: count }, () => fill(random, pick(random, QUESTIONS)));
}
