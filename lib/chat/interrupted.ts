/**
 * Answers cut off by a crash or a killed function: marked `error` ("interrupted") with their
 * partial text and their debug record completed (db/queries/interrupted-answers.ts), then their
 * pair's memory extraction is enqueued like any other answer's — the user's message still says
 * what it said. Run at server start and periodically (lib/runtime.ts).
 */
import { answerConfig } from "@/core/config";
import type { Logger } from "@/core/logger";
import type { Db } from "@/db/client";
import { markInterruptedAnswers } from "@/db/queries/interrupted-answers";
import { type ExtractionDispatcher, enqueueExtraction } from "@/lib/jobs/extraction-queue";

export async function recoverInterruptedAnswers(
  db: Db,
  deps: { dispatcher: ExtractionDispatcher; now: () => Date; log: Logger },
  { interruptedAfterMs = answerConfig.interruptedAfterMs }: { interruptedAfterMs?: number } = {},
): Promise<number> {
  const staleBefore = new Date(deps.now().getTime() - interruptedAfterMs);
  const answers = await markInterruptedAnswers(db, { staleBefore });
  for (const answer of answers) {
    if (!answer.userMessageId) continue;
    try {
      await enqueueExtraction(
        db,
        {
          userId: answer.userId,
          conversationId: answer.conversationId,
          userMessageId: answer.userMessageId,
          assistantMessageId: answer.assistantMessageId,
          memoryEnabled: answer.memoryEnabled,
        },
        deps.dispatcher,
      );
    } catch (error) {
      deps.log.error(
        { err: error, messageId: answer.assistantMessageId },
        "could not enqueue an interrupted answer's extraction",
      );
    }
  }
  if (answers.length > 0) deps.log.warn({ interrupted: answers.length }, "marked answers cut off by a stopped server");
  return answers.length;
}
