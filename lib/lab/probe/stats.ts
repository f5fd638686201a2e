/** Latency percentiles and tallies for probe results. */

export interface LatencyStats {
  readonly min: number;
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
  readonly max: number;
}

/** Nearest-rank percentile of sorted values (p in 0..100). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) {
    throw new Error('percentile of no values');
  }
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1];
}

const round = (ms: number) => Math.round(ms * 10) / 10;

/** Milliseconds, rounded to 0.1 ms; `null` without values. */
export function latencyStats(values: readonly number[]): LatencyStats | null {
  if (values.length === 0) {
    return null;
  }
  const sorted = [...values].sort((a, b) => a - b);
  return {
    min: round(sorted[0]),
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted[sorted.length - 1]),
  };
}

/** Counts of each value, keys sorted, for stable output. */
export function tally(values: readonly (string | undefined)[]): Record<string, number> {
  const counts = new Map<string, number>();
  for (const v of values) {
    if (v !== undefined) {
      counts.set(v, (counts.get(v) ?? 0) + 1);
    }
  }
  return Object.fromEntries([...counts.entries()].sort(([a], [b]) => a.localeCompare(b)));
}
