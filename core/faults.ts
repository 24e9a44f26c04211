/**
 * SIGKILL at the named point, exactly like `kill -9` then; unset (always, in production), a point is one
 * comparison.
 *
 *   crash-after-answer-final   lib/chat/settle.ts: the answer is final, its extraction not yet dispatched.
 */
import { env, type FaultPoint } from "./env";
import { logger } from "./logger";

export function faultPoint(point: FaultPoint): void {
  if (env().LIFELINE_FAULT !== point) return;
  logger.fatal({ fault: point }, "LIFELINE_FAULT: killing this process at the crash point");
  process.kill(process.pid, "SIGKILL");
}
