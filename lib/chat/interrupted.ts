/**
 * Answers cut off by a crash: marked interrupted with their partial text, debug record completed and, in the same
 * transaction, their pair's extraction row written. The hand-over is awaited: the sweep has no response to defer to.
 */
import { answerConfig } from "@/core/config";
import type { Logger } from "@/core/logger";
import type { Db } from "@/db/client";
import type { Extraction } from "@/db/queries/extractions";
import { markInterruptedAnswers } from "@/db/queries/interrupted-answers";
import {
  dispatchExtraction,
  type ExtractionDispatcher,
  needsDispatch,
  recordExtraction,
} from "@/lib/jobs/extraction-queue";

export async function recoverInterruptedAnswers(
  db: Db,
  deps: { dispatcher: ExtractionDispatcher; now: () => Date; log: Logger },
  { interruptedAfterMs = answerConfig.interruptedAfterMs }: { interruptedAfterMs?: number } = {},
): Promise<number> {
  const staleBefore = new Date(deps.now().getTime() - interruptedAfterMs);
  const { marked, queued } = await db.transaction(async (tx) => {
    const answers = await markInterruptedAnswers(tx, { staleBefore });
    const rows: Extraction[] = [];
    for (const answer of answers) {
      if (!answer.userMessageId) continue;
      const recorded = await recordExtraction(
        tx,
        {
          userId: answer.userId,
          conversationId: answer.conversationId,
          userMessageId: answer.userMessageId,
          assistantMessageId: answer.assistantMessageId,
          memoryEnabled: answer.memoryEnabled,
        },
        deps.dispatcher.kind,
      );
      if (needsDispatch(recorded)) rows.push(recorded.extraction);
    }
    return { marked: answers.length, queued: rows };
  });
  if (marked > 0) deps.log.warn({ interrupted: marked }, "marked answers cut off by a stopped server");
  await Promise.all(queued.map((row) => dispatchExtraction(db, row, deps.dispatcher)));
  return marked;
}
