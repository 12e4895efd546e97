import { describe, expect, it } from "vitest";
import { createGroupCommitter } from "./group-commit.js";

function deferred() {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { gate, release };
}

describe("createGroupCommitter", () => {
  const base = { weight: (n: number) => n, now: () => 0, expired: () => new Error("expired") };

  it("flushes at once when idle, then groups what arrives during a flush", async () => {
    const flushed: number[][] = [];
    const first = deferred();
    const committer = createGroupCommitter(
      async (items: readonly number[]) => {
        flushed.push([...items]);
        if (flushed.length === 1) await first.gate;
        return items.map((n) => n * 10);
      },
      { ...base, maxWeight: 100 },
    );
    const a = committer.submit(1, 1);
    const rest = [2, 3, 4].map((n) => committer.submit(n, 1));
    first.release();
    expect(await Promise.all([a, ...rest])).toEqual([10, 20, 30, 40]);
    expect(flushed).toEqual([[1], [2, 3, 4]]);
  });

  it("caps a group by weight but always lets a heavy item through alone", async () => {
    const flushed: number[][] = [];
    const gate = deferred();
    const committer = createGroupCommitter(
      async (items: readonly number[]) => {
        flushed.push([...items]);
        if (flushed.length === 1) await gate.gate;
        return items;
      },
      { ...base, maxWeight: 5 },
    );
    const all = [1, 3, 2, 9, 1].map((n) => committer.submit(n, 1));
    gate.release();
    await Promise.all(all);
    expect(flushed).toEqual([[1], [3, 2], [9], [1]]);
  });

  it("rejects the whole group when its flush fails, and carries on with the next", async () => {
    let calls = 0;
    const gate = deferred();
    const committer = createGroupCommitter(
      async (items: readonly number[]) => {
        calls += 1;
        if (calls === 1) {
          await gate.gate;
          throw new Error("redis down");
        }
        return items;
      },
      { ...base, maxWeight: 10 },
    );
    const failed = committer.submit(1, 1);
    const next = committer.submit(2, 1);
    gate.release();
    await expect(failed).rejects.toThrow("redis down");
    await expect(next).resolves.toBe(2);
  });

  it("never flushes an item whose deadline passed while it waited", async () => {
    let clock = 0;
    const flushed: number[][] = [];
    const gate = deferred();
    const committer = createGroupCommitter(
      async (items: readonly number[]) => {
        flushed.push([...items]);
        if (flushed.length === 1) await gate.gate;
        return items;
      },
      { ...base, now: () => clock, maxWeight: 10 },
    );
    const first = committer.submit(1, 100);
    const late = committer.submit(2, 50);
    const fine = committer.submit(3, 500);
    clock = 200;
    gate.release();
    await first.catch(() => {});
    await expect(late).rejects.toThrow("expired");
    await expect(fine).resolves.toBe(3);
    expect(flushed).toEqual([[1], [3]]);
  });

  describe('gather: "io-phase"', () => {
    it("puts what the I/O callbacks of one turn of the event loop submit in one flush", async () => {
      const flushed: number[][] = [];
      const committer = createGroupCommitter(
        async (items: readonly number[]) => {
          flushed.push([...items]);
          return items;
        },
        { ...base, maxWeight: 100, gather: "io-phase" },
      );
      // Three callbacks of one poll phase stand for three webhooks read in one poll.
      const submitted = await new Promise<Promise<number>[]>((resolve) => {
        const all: Promise<number>[] = [];
        let left = 3;
        for (const n of [1, 2, 3]) {
          setImmediate(() => {
            all.push(committer.submit(n, 1));
            if (--left === 0) resolve(all);
          });
        }
      });
      expect(await Promise.all(submitted)).toEqual([1, 2, 3]);
      expect(flushed).toEqual([[1, 2, 3]]);
      // Later submissions make a flush of their own: nothing waits for a group to fill.
      expect(await committer.submit(4, 1)).toBe(4);
      expect(flushed).toEqual([[1, 2, 3], [4]]);
    });

    it("fills every free slot when what waits is heavier than one group", async () => {
      const flushed: number[][] = [];
      const gates = [deferred(), deferred()];
      const committer = createGroupCommitter(
        async (items: readonly number[]) => {
          const gate = gates[flushed.length];
          flushed.push([...items]);
          if (gate !== undefined) await gate.gate;
          return items;
        },
        { ...base, maxWeight: 2, maxInFlight: 2, gather: "io-phase" },
      );
      const all = [1, 1, 1, 1, 1].map((n) => committer.submit(n, 1));
      await new Promise((resolve) => setImmediate(resolve));
      // Two flushes started together; the fifth item waits for a free slot.
      expect(flushed).toEqual([
        [1, 1],
        [1, 1],
      ]);
      for (const gate of gates) gate.release();
      await Promise.all(all);
      expect(flushed).toEqual([[1, 1], [1, 1], [1]]);
    });

    it("rejects an item whose deadline passed before the gather ran, and flushes the rest", async () => {
      let clock = 0;
      const flushed: number[][] = [];
      const committer = createGroupCommitter(
        async (items: readonly number[]) => {
          flushed.push([...items]);
          return items;
        },
        { ...base, now: () => clock, maxWeight: 10, gather: "io-phase" },
      );
      const late = committer.submit(1, 5);
      const fine = committer.submit(2, 50);
      clock = 10;
      await expect(late).rejects.toThrow("expired");
      await expect(fine).resolves.toBe(2);
      expect(flushed).toEqual([[2]]);
    });
  });
});
