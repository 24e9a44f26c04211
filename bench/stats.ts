/** Latency summaries: percentiles by the nearest-rank method, in milliseconds. */

export interface Latency {
  samples: number;
  p50: number;
  p95: number;
  p99: number;
  mean: number;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

export function summarise(samples: readonly number[]): Latency {
  const sorted = [...samples].sort((a, b) => a - b);
  const round = (x: number) => Math.round(x * 100) / 100;
  return {
    samples: sorted.length,
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    p99: round(percentile(sorted, 99)),
    mean: round(sorted.reduce((sum, x) => sum + x, 0) / Math.max(1, sorted.length)),
  };
}
