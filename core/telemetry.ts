/**
 * Without a registered provider (scripts, tests) the API hands out no-op spans that cost a function call.
 * Span names are `<pipeline>.<stage>` (docs/deploy.md, "Observability").
 */
import { type Attributes, type Span, SpanStatusCode, trace } from "@opentelemetry/api";

export type { Attributes, Span };

export function tracer() {
  return trace.getTracer("lifeline");
}

export function recordSpanError(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}

/** Spans opened inside are children; a throw marks the span failed and is rethrown. */
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
