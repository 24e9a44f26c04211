/**
 * The fault suite's OpenAI-compatible server: the strict contract fake, where a request with a held
 * marker is never answered so the test can kill Lifeline while it waits.
 */
import { answerConfig } from "@/core/config";
import { startStrictOpenAi } from "@/tests/contracts/openai-fake";

export const HOLD_EMBEDDING = "HOLD-EMBEDDING";
export const HOLD_MID_STREAM = "HOLD-MID-STREAM";
export const HOLD_EXTRACTION = "HOLD-EXTRACTION";

export interface FakeOpenAi {
  baseURL: string;
  heldOn(marker: string): Promise<void>;
  /** From now on, requests with `marker` are answered normally (held ones stay held: their client is gone). */
  release(marker: string): void;
  close(): Promise<void>;
}

export async function startFakeOpenAi(): Promise<FakeOpenAi> {
  const released = new Set<string>();
  const waiters = new Map<string, () => void>();
  const arrivals = new Map<string, Promise<void>>();
  for (const marker of [HOLD_EMBEDDING, HOLD_MID_STREAM, HOLD_EXTRACTION]) {
    arrivals.set(marker, new Promise<void>((resolve) => waiters.set(marker, resolve)));
  }
  const holds = (body: unknown, marker: string) => {
    if (!JSON.stringify(body).includes(marker) || released.has(marker)) return false;
    waiters.get(marker)?.();
    return true;
  };

  const fake = await startStrictOpenAi(
    (body) => {
      if (!body.stream) {
        const name = body.response_format?.json_schema?.name;
        return name === "memory_extraction" && holds(body, HOLD_EXTRACTION) ? { kind: "hold" } : undefined;
      }
      const midStream = JSON.stringify(body).includes(HOLD_MID_STREAM) && !released.has(HOLD_MID_STREAM);
      return {
        kind: "pieces",
        pieces: [
          { text: "Partial words " },
          // After the answer's progress interval, so the partial text is saved.
          { text: "reached the server ", pauseBeforeMs: answerConfig.progressIntervalMs + 200 },
          { text: "and the answer ends." },
        ],
        // Held once the first two pieces are out: the test kills the server with the partial text saved.
        ...(midStream ? { holdAfter: 2, onHeld: () => waiters.get(HOLD_MID_STREAM)?.() } : {}),
      };
    },
    { embeddings: (body) => (holds(body, HOLD_EMBEDDING) ? "hold" : undefined) },
  );
  return {
    baseURL: fake.baseURL,
    heldOn: (marker) => arrivals.get(marker) ?? Promise.reject(new Error(`unknown marker ${marker}`)),
    release: (marker) => released.add(marker),
    close: () => fake.close(),
  };
}
