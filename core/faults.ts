/**
 * Injected crash points for the fault suite (tests/faults): with LIFELINE_FAULT naming a point,
 * the process kills itself with SIGKILL when it reaches that point — no shutdown code, no pending
 * write, exactly like `kill -9` at that instant. Unset (always, on a production server: core/env.ts
 * refuses it there), a point is one comparison and nothing happens.
 *
 *   crash-after-answer-final   lib/chat/settle.ts: the answer is saved as final, and the pair's
 *                              extraction has not been handed to its runner yet.
 */
import { env, type FaultPoint } from "./env";
import { logger } from "./logger";

export function faultPoint(point: FaultPoint): void {
  if (env().LIFELINE_FAULT !== point) return;
  logger.fatal({ fault: point }, "LIFELINE_FAULT: killing this process at the crash point");
  process.kill(process.pid, "SIGKILL");
}
