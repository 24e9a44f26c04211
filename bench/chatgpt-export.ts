/**
 * A deterministic ChatGPT-shaped `conversations.json` for the import bench: each conversation a
 * `mapping` tree with a hidden system root, user and assistant turns, and now and then what a real
 * export holds besides (a regenerated answer on a branch not kept, an image, a tool call and its
 * result). Sizes follow a personal export: mostly short conversations with a long tail, questions of
 * a few sentences with an occasional pasted document, answers of a few paragraphs.
 */
import { generateMemories, generateQuestions, prng } from "./corpus";

export interface GeneratedExport {
  conversations: Record<string, unknown>[];
  /** What lib/import reads out of it: exchanges are user messages answered by the next message. */
  expected: { conversations: number; messages: number; exchanges: number };
}

const FILLER = [
  "That makes sense, and there are a few things worth weighing before you decide.",
  "First, think about how often this will come up in a normal week.",
  "Many people find it easier to start small and adjust after a couple of weeks.",
  "If the budget is tight, the second option usually gives the most for the money.",
  "It also helps to write down what worked last time, so the next plan starts from it.",
  "Here is a simple way to structure it, step by step.",
  "Keep in mind that the timing matters more than the exact amount.",
  "You could also ask someone who has done it before; they will spot what is missing.",
  "A checklist the night before saves most of the stress on the day.",
  "Either way, leave some slack in the schedule for the unexpected.",
];

const sentences = (random: () => number, count: number) =>
  Array.from({ length: count }, () => FILLER[Math.floor(random() * FILLER.length)]).join(" ");

/** An assistant answer: 2–7 paragraphs of 2–5 sentences (about 1–3 KB). */
function answer(random: () => number): string {
  const paragraphs = 2 + Math.floor(random() * 6);
  return Array.from({ length: paragraphs }, () => sentences(random, 2 + Math.floor(random() * 4))).join("\n\n");
}

/** Exchanges in a conversation: at least one, five on average, a long tail capped at 40. */
function exchangeCount(random: () => number): number {
  return Math.min(40, 1 + Math.floor(-Math.log(1 - random()) * 4));
}

export function generateChatGptExport(
  seed: number,
  count: number,
  start = Date.UTC(2023, 0, 1) / 1000,
): GeneratedExport {
  const random = prng(seed);
  const facts = generateMemories(seed, count * 3).map((memory) => memory.content);
  const questions = generateQuestions(seed + 1, count * 3);
  let fact = 0;
  const expected = { conversations: count, messages: 0, exchanges: 0 };
  const conversations = Array.from({ length: count }, (_, c) => {
    const id = `bench-${seed}-${c}`;
    let time = start + c * 36_000 + Math.floor(random() * 20_000);
    const created = time;
    const mapping: Record<string, Record<string, unknown>> = {};
    let parent = `${id}-root`;
    mapping[parent] = { id: parent, message: null, parent: null, children: [] };
    const add = (suffix: string, message: Record<string, unknown> | null, attach = true) => {
      const nodeId = `${id}-${suffix}`;
      mapping[nodeId] = { id: nodeId, message: message && { id: nodeId, ...message }, parent, children: [] };
      const siblings = mapping[parent]?.children;
      if (Array.isArray(siblings)) siblings.push(nodeId);
      if (attach) parent = nodeId;
      return nodeId;
    };
    const msg = (role: string, parts: unknown[], extra: Record<string, unknown> = {}) => {
      time += 5 + Math.floor(random() * 90);
      return {
        author: { role, name: null, metadata: {} },
        create_time: time,
        content: { content_type: extra.content_type ?? "text", parts },
        status: "finished_successfully",
        end_turn: role === "assistant" ? true : null,
        weight: 1,
        metadata: extra.metadata ?? {},
        recipient: extra.recipient ?? "all",
      };
    };
    add("sys", { ...msg("system", [""]), metadata: { is_visually_hidden_from_conversation: true } });
    const exchanges = exchangeCount(random);
    for (let e = 0; e < exchanges; e++) {
      const said = [facts[fact++ % facts.length], questions[e % questions.length]];
      // One question in twenty carries a pasted document of 3–8 KB.
      if (random() < 0.05) said.push(answer(random).repeat(1 + Math.floor(random() * 3)));
      const withImage = random() < 0.05;
      const userParts = withImage
        ? [{ content_type: "image_asset_pointer", asset_pointer: `file-service://file-${id}-${e}` }, said.join(" ")]
        : [said.join(" ")];
      add(`u${e}`, msg("user", userParts, withImage ? { content_type: "multimodal_text" } : {}));
      if (random() < 0.05) {
        add(`call${e}`, msg("assistant", ['search("weather")'], { content_type: "code", recipient: "browser" }));
        add(`tool${e}`, msg("tool", ["Sunny, 21°C."]));
      }
      // A regenerated answer: the first version stays on a branch the user did not keep.
      if (random() < 0.1) add(`a${e}-old`, msg("assistant", [answer(random)]), false);
      add(`a${e}`, msg("assistant", [answer(random)]));
      expected.messages += 2;
      expected.exchanges += 1;
    }
    return {
      title: `Conversation ${c + 1}`,
      create_time: created,
      update_time: time,
      mapping,
      moderation_results: [],
      current_node: parent,
      conversation_id: id,
      id,
      default_model_slug: "gpt-4o",
    };
  });
  return { conversations, expected };
}
