/**
 * What a chat turn did before its model was called, read from the turn's own spans while the bench's in-process
 * server answers: the writes as the real turn made them (`chat.write` in lib/chat/turn.ts, the access count's
 * `retrieval.access_write` in lib/memory/retrieval/assemble.ts), not a replay, and when the model call began (the
 * `chat.model` span of lib/chat/text-answer.ts). The debug record's model-call write starts with the model call and
 * runs alongside the model's own time to its first token, so it is not among them.
 */
import { trace } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";

type Span = Pick<ReadableSpan, "name" | "attributes" | "duration" | "startTime">;

const ms = ([seconds, nanos]: readonly [number, number]) => seconds * 1e3 + nanos / 1e6;

/** Milliseconds the spans spent in the turn's writes before its model call. */
export function preModelWriteMs(spans: readonly Span[]): number {
  return spans
    .filter((span) => span.name === "chat.write" || span.name === "retrieval.access_write")
    .reduce((sum, span) => sum + ms(span.duration), 0);
}

/** When (epoch milliseconds, as `performance.timeOrigin + performance.now()`) the first model call began; null: none. */
export function modelCalledAt(spans: readonly Span[]): number | null {
  const starts = spans.filter((span) => span.name === "chat.model").map((span) => ms(span.startTime));
  return starts.length > 0 ? Math.min(...starts) : null;
}

export interface TurnSpans {
  /** The turns since the last call (the bench takes one at a time): their pre-model writes and model call; then forgets them. */
  take(): { writesMs: number; modelCalledAt: number | null };
  stop(): Promise<void>;
}

/** Registers a tracer provider for this process (the bench's server runs in it) until `stop`. */
export function captureTurnSpans(): TurnSpans {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  trace.setGlobalTracerProvider(provider);
  return {
    take() {
      const spans = exporter.getFinishedSpans();
      exporter.reset();
      return { writesMs: preModelWriteMs(spans), modelCalledAt: modelCalledAt(spans) };
    },
    async stop() {
      trace.disable();
      await provider.shutdown();
    },
  };
}
