/**
 * Auto-title: after the first exchange (AUTO_TITLE_AFTER_MESSAGES messages: the question and its
 * answer), while the conversation still has the default title, the extraction model names it
 * (≤ 8 words, ≤ 100 chars). Runs after the response; a title the user set is never overwritten.
 * The chat view refreshes the sidebar until the title arrives (components/chat/chat.tsx).
 * Durable like extraction: the answer's transaction writes the conversation's title job
 * (db/queries/title-jobs.ts), runTitleJob deletes it once it ran, and the sweep runs the jobs a
 * stopped process left (titleStaleConversations).
 */

import { generateText, Output } from "ai";
import { modelCallConfig, titleConfig } from "@/core/config";
import type { Logger } from "@/core/logger";
import { takeChars } from "@/core/text";
import type { Db } from "@/db/client";
import { DEFAULT_CONVERSATION_TITLE, getConversation, setTitleIfDefault } from "@/db/queries/conversations";
import { listMessages } from "@/db/queries/messages";
import { claimTitleJob, finishTitleJob, listStaleTitleJobs } from "@/db/queries/title-jobs";
import type { AiRegistry } from "@/lib/ai/registry";
import { handoffOptions } from "@/lib/memory/extraction/schema";
import { strictOutputSchema } from "@/lib/memory/extraction/strict-schema";
import { buildTitlePrompt, TITLE_OUTPUT_NAME, titleSchema } from "./title-prompt";

export const AUTO_TITLE_AFTER_MESSAGES = 2;
export const TITLE_MAX_WORDS = 8;
export const TITLE_MAX_CHARS = 100;

/**
 * A model's title → at most 8 words and 100 characters, without quotes or trailing punctuation.
 * Apostrophes inside a word stay ("I'm vegetarian", "Maya’s birthday"); quotes around words go.
 */
export function cleanTitle(raw: string): string {
  const words = raw
    .replace(/["“”`«»]/g, "")
    .replace(/(^|\s)['‘’]+|['‘’]+(?=\s|$)/gu, "$1")
    .replace(/\s+/g, " ")
    .trim()
    .split(" ")
    .slice(0, TITLE_MAX_WORDS);
  let title = words.join(" ");
  if (title.length > TITLE_MAX_CHARS) title = takeChars(title, TITLE_MAX_CHARS).trimEnd();
  return title.replace(/[\s.,;:!?-]+$/, "");
}

/** Titles the conversation when it is due; returns the new title, or null when nothing changed. */
export async function maybeTitleConversation(
  db: Db,
  ai: AiRegistry,
  { userId, conversationId }: { userId: string; conversationId: string },
): Promise<string | null> {
  const conversation = await getConversation(db, { userId, conversationId });
  if (conversation.title !== DEFAULT_CONVERSATION_TITLE) return null;
  const messages = await listMessages(db, { userId, conversationId });
  if (messages.length < AUTO_TITLE_AFTER_MESSAGES) return null;
  const opening = messages
    .filter((m) => (m.role === "user" || m.role === "assistant") && m.content.trim() !== "")
    .slice(0, 4)
    .map((m) => ({ role: m.role as "user" | "assistant", content: takeChars(m.content, 2000) }));
  const { system, prompt } = buildTitlePrompt(opening);
  const { output } = await generateText({
    model: ai.getExtractionModel(),
    instructions: system,
    prompt,
    temperature: 0.2,
    timeout: modelCallConfig.structuredTimeoutMs,
    output: Output.object({ schema: strictOutputSchema(titleSchema), name: TITLE_OUTPUT_NAME }),
    providerOptions: handoffOptions({ task: TITLE_OUTPUT_NAME, input: opening }),
  });
  const title = cleanTitle(output.title);
  if (!title || title === DEFAULT_CONVERSATION_TITLE) return null;
  const changed = await setTitleIfDefault(db, { userId, conversationId, title });
  return changed ? title : null;
}

/**
 * The title job, run right after the answer: takes the conversation's job row (claimTitleJob; none,
 * or one another run holds → nothing runs), titles the conversation if due, then deletes the row
 * — titled or not, so a failing model is not called again every minute.
 */
export async function runTitleJob(
  db: Db,
  ai: AiRegistry,
  conversation: { userId: string; conversationId: string },
): Promise<string | null> {
  if (!(await claimTitleJob(db, { ...conversation, dueBy: null, leaseMs: titleConfig.leaseMs }))) return null;
  return titleAndFinish(db, ai, conversation);
}

async function titleAndFinish(
  db: Db,
  ai: AiRegistry,
  conversation: { userId: string; conversationId: string },
): Promise<string | null> {
  try {
    return await maybeTitleConversation(db, ai, conversation);
  } finally {
    await finishTitleJob(db, conversation);
  }
}

/**
 * The title sweep: runs the title jobs waiting longer than titleConfig.retryAfterMs (a stopped
 * process left them; a running job's lease keeps it out), one after another. A failing one is
 * logged and its row goes. Returns how many ran.
 */
export async function titleStaleConversations(
  db: Db,
  ai: AiRegistry,
  { now, log }: { now: Date; log: Logger },
): Promise<number> {
  const before = new Date(now.getTime() - titleConfig.retryAfterMs);
  const jobs = await listStaleTitleJobs(db, { before, limit: titleConfig.sweepBatch });
  let ran = 0;
  for (const job of jobs) {
    try {
      // Taken only if still stale: a run that took it since the listing keeps it.
      if (!(await claimTitleJob(db, { ...job, dueBy: before, leaseMs: titleConfig.leaseMs }))) continue;
      ran += 1;
      await titleAndFinish(db, ai, job);
    } catch (error) {
      log.warn(
        { err: error, conversationId: job.conversationId },
        "could not title a conversation a stopped process left",
      );
    }
  }
  return ran;
}
