import type { Registry } from "prom-client";

/** p50 and p99 of a Prometheus histogram in this process, in ms, over the series that pass `keep`; null without samples. */
export async function histogramQuantilesMs(
  registry: Registry,
  name: string,
  keep: (labels: Partial<Record<string, string | number>>) => boolean = () => true,
): Promise<{ p50: number; p99: number } | null> {
  const metric = registry.getSingleMetric(name);
  if (metric === undefined) return null;
  const { values } = await metric.get();
  // Cumulative bucket counts summed across the kept label sets, by upper bound.
  const buckets = new Map<number, number>();
  for (const value of values) {
    const bound = value.labels.le;
    const series = (value as { readonly metricName?: string }).metricName;
    if (series !== `${name}_bucket` || bound === undefined || !keep(value.labels)) continue;
    const le = bound === "+Inf" ? Number.POSITIVE_INFINITY : Number(bound);
    buckets.set(le, (buckets.get(le) ?? 0) + value.value);
  }
  const sorted = [...buckets.entries()].sort((a, b) => a[0] - b[0]);
  const total = sorted.at(-1)?.[1] ?? 0;
  if (total === 0) return null;
  const quantile = (q: number) => {
    const rank = q * total;
    let lowerBound = 0;
    let lowerCount = 0;
    for (const [le, count] of sorted) {
      if (count >= rank) {
        // Linear inside the bucket, as Prometheus's histogram_quantile does; the +Inf bucket answers its lower bound.
        if (!Number.isFinite(le)) return lowerBound;
        const share = count === lowerCount ? 1 : (rank - lowerCount) / (count - lowerCount);
        return lowerBound + (le - lowerBound) * share;
      }
      lowerBound = le;
      lowerCount = count;
    }
    return lowerBound;
  };
  return { p50: quantile(0.5) * 1000, p99: quantile(0.99) * 1000 };
}
