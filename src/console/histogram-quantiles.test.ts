import { Histogram, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { histogramQuantilesMs } from "./histogram-quantiles.js";

describe("histogram quantiles", () => {
  it("interpolates p50 and p99 inside buckets, over the kept label sets only, in ms", async () => {
    const registry = new Registry();
    const histogram = new Histogram({
      name: "t_seconds",
      help: "t",
      labelNames: ["route"],
      buckets: [0.001, 0.01, 0.1],
      registers: [registry],
    });
    for (let i = 0; i < 98; i += 1) histogram.observe({ route: "webhook" }, 0.0005);
    histogram.observe({ route: "webhook" }, 0.05);
    histogram.observe({ route: "webhook" }, 0.05);
    for (let i = 0; i < 50; i += 1) histogram.observe({ route: "other" }, 5);
    const figures = await histogramQuantilesMs(registry, "t_seconds", (labels) => labels.route === "webhook");
    expect(figures?.p50).toBeCloseTo(0.51, 1);
    expect(figures?.p99).toBeGreaterThan(10);
    expect(figures?.p99).toBeLessThanOrEqual(100);
    expect(await histogramQuantilesMs(registry, "missing_seconds")).toBeNull();
    expect(await histogramQuantilesMs(registry, "t_seconds", () => false)).toBeNull();
  });
});
