import { Counter, type CounterConfiguration } from "prom-client";

/** One label set of a counter, bound once: inc() adds to a plain number the registry reads on scrape. */
export interface CounterCell {
  inc(by?: number): void;
}

/** A prom-client Counter whose label sets can be bound once and counted without prom-client per call. */
export interface CellCounter<T extends string> extends Counter<T> {
  /** The cell of these label values (in labelNames order); the same object for the same values. */
  cell(...values: string[]): CounterCell;
}

interface Cell extends CounterCell {
  readonly labels: Partial<Record<string, string>>;
  pending: number;
}

/**
 * A counter for hot paths: prom-client's inc() builds and validates a label
 * hash on every call (even through labels()), several µs per webhook. A cell
 * only adds to a number; what the cells hold moves into the counter when it
 * is collected (every scrape, every get()), so a scrape sees every increment.
 */
export function createCellCounter<T extends string>(
  config: Omit<CounterConfiguration<T>, "collect">,
): CellCounter<T> {
  const cells = new Map<string, Cell>();
  const labelNames = config.labelNames ?? [];
  const counter = new Counter<T>({
    ...config,
    collect() {
      for (const cell of cells.values()) {
        if (cell.pending === 0) continue;
        this.inc(cell.labels as Partial<Record<T, string>>, cell.pending);
        cell.pending = 0;
      }
    },
  }) as CellCounter<T>;
  counter.cell = (...values: string[]): CounterCell => {
    const key = values.join("\u0000");
    let cell = cells.get(key);
    if (cell === undefined) {
      if (values.length !== labelNames.length) {
        throw new Error(`${config.name}: ${labelNames.length} label values expected, got ${values.length}`);
      }
      const labels = Object.fromEntries(labelNames.map((name, index) => [name, values[index]]));
      // Said once, when the label set is first bound, as prom-client would on every inc().
      counter.inc(labels as Partial<Record<T, string>>, 0);
      const created: Cell = {
        labels,
        pending: 0,
        inc(by = 1) {
          created.pending += by;
        },
      };
      cell = created;
      cells.set(key, cell);
    }
    return cell;
  };
  return counter;
}
