/**
 * The chat turn's writes before its first token, read from the turn's own spans (`chat.write` in
 * lib/chat/turn.ts, the access count's `retrieval.access_write` in lib/memory/retrieval/assemble.ts,
 * the model-call `chat.debug_write` in lib/chat/settle.ts) while the bench's
 * in-process server answers: the writes as the real turn made them, not a replay.
 */
import { trace } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";

/** Milliseconds the spans spent writing before the answer's first token (the settled debug write comes after it). */
export function preModelWriteMs(spans: readonly Pick<ReadableSpan, "name" | "attributes" | "duration">[]): number {
  return spans
    .filter(
      (span) =>
        span.name === "chat.write" ||
        span.name === "retrieval.access_write" ||
        (span.name === "chat.debug_write" && span.attributes["lifeline.debug.phase"] === "model-call"),
    )
    .reduce((sum, span) => sum + span.duration[0] * 1e3 + span.duration[1] / 1e6, 0);
}

export interface TurnWrites {
  /** The pre-model writes of the turns since the last call; then forgets them. */
  take(): number;
  stop(): Promise<void>;
}

/** Registers a tracer provider for this process (the bench's server runs in it) until `stop`. */
export function captureTurnWrites(): TurnWrites {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  trace.setGlobalTracerProvider(provider);
  return {
    take() {
      const ms = preModelWriteMs(exporter.getFinishedSpans());
      exporter.reset();
      return ms;
    },
    async stop() {
      trace.disable();
      await provider.shutdown();
    },
  };
}
