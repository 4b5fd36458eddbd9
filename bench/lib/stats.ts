/** Percentiles over recorded samples. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

export function summary(samples: number[]): { count: number; p50: number; p99: number; max: number } {
  const s = Float64Array.from(samples).sort();
  return { count: s.length, p50: percentile(s, 50), p99: percentile(s, 99), max: s.length ? s[s.length - 1]! : NaN };
}

/** CPU used between two process.cpuUsage() readings, as a share of one core over `ms`. */
export function cpuShare(a: NodeJS.CpuUsage, b: NodeJS.CpuUsage, ms: number): number {
  return (b.user + b.system - a.user - a.system) / 1000 / ms;
}
