import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { createCellCounter } from "./counter-cells.js";

function counterOn(registry: Registry) {
  return createCellCounter({
    name: "test_things_total",
    help: "things",
    labelNames: ["tenant", "result"],
    registers: [registry],
  });
}

describe("createCellCounter", () => {
  it("counts through bound cells, and every increment is in the next scrape", async () => {
    const registry = new Registry();
    const counter = counterOn(registry);
    const accepted = counter.cell("default", "accepted");
    accepted.inc();
    accepted.inc(2);
    counter.cell("default", "duplicate").inc();
    const text = await registry.metrics();
    expect(text).toContain('test_things_total{tenant="default",result="accepted"} 3');
    expect(text).toContain('test_things_total{tenant="default",result="duplicate"} 1');
    accepted.inc();
    expect(await registry.metrics()).toContain('test_things_total{tenant="default",result="accepted"} 4');
  });

  it("hands out one cell per label set, shows a bound set at 0, and still takes plain inc()", async () => {
    const registry = new Registry();
    const counter = counterOn(registry);
    expect(counter.cell("a", "accepted")).toBe(counter.cell("a", "accepted"));
    expect(counter.cell("a", "accepted")).not.toBe(counter.cell("b", "accepted"));
    counter.inc({ tenant: "a", result: "accepted" });
    counter.cell("a", "accepted").inc();
    const values = (await counter.get()).values;
    expect(values).toContainEqual({ labels: { tenant: "a", result: "accepted" }, value: 2 });
    expect(values).toContainEqual({ labels: { tenant: "b", result: "accepted" }, value: 0 });
  });

  it("refuses a cell with the wrong number of label values", () => {
    const counter = counterOn(new Registry());
    expect(() => counter.cell("only-one")).toThrow(/2 label values expected, got 1/);
  });
});
