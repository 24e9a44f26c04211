/**
 * Tracing (OpenTelemetry). Lib code opens spans through the `@opentelemetry/api` tracer here; what
 * happens to them is the process's choice: instrumentation.ts registers `@vercel/otel`, which
 * sends them to Vercel's collector on Vercel or to OTEL_EXPORTER_OTLP_ENDPOINT when set, and to
 * nowhere otherwise. Without a registered provider (scripts, tests that do not install one) the
 * API hands out no-op spans: nothing is recorded and nothing costs more than a function call.
 *
 * Span names are `<pipeline>.<stage>`: chat.retrieval, chat.model, chat.debug_write and
 * extraction.<step> (docs/deploy.md, "Observability").
 */
import { type Attributes, type Span, SpanStatusCode, trace } from "@opentelemetry/api";

export type { Attributes, Span };

export function tracer() {
  return trace.getTracer("lifeline");
}

/** Marks the span failed with the error, without ending it. */
export function recordSpanError(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}

/**
 * Runs `fn` inside an active span named `name` (spans it opens are its children), ending it when
 * `fn` settles; a throw marks the span failed and is rethrown.
 */
export function inSpan<T>(name: string, attributes: Attributes, fn: (span: Span) => Promise<T>): Promise<T> {
  return tracer().startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await fn(span);
    } catch (error) {
      recordSpanError(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}
