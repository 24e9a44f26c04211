/**
 * Auto-title after the first exchange, while the title is the default: a title the user set is never overwritten.
 * Durable like extraction: the answer's transaction writes the job, and the sweep runs those a stopped process left.
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

/** ≤ 8 words, ≤ 100 chars, no quotes or trailing punctuation; apostrophes inside a word stay ("Maya’s birthday"). */
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

/** Runs the job if its row is free; the row goes titled or not, so a failing model is not called every minute. */
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

/** Runs the jobs a stopped process left (a running job's lease keeps it out), one by one; returns how many ran. */
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
