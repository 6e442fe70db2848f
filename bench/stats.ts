/** Small numeric helpers for the benchmark: medians and percentiles of samples, number formats. */

export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  // Nearest-rank on the sorted samples; p in [0, 100].
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export function median(samples: readonly number[]): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** A fixed number of decimals, or an em dash for a missing figure. */
export function fmt(value: number | undefined, decimals = 1): string {
  if (value === undefined || !Number.isFinite(value)) return '—';
  return value.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

export function kib(bytes: number): string {
  return `${fmt(bytes / 1024, 1)} KiB`;
}

/** Dollars with enough decimals to show small per-million figures. */
export function usd(value: number): string {
  if (!Number.isFinite(value)) return '—';
  if (value >= 100) return `$${fmt(value, 0)}`;
  if (value >= 1) return `$${fmt(value, 2)}`;
  return `$${value.toFixed(4)}`;
}
