import { beforeEach, describe, expect, it } from "vitest";
import type { SendOrder } from "../../src/outbound/index.js";

/** The behaviour every SendOrder adapter must have; `open` gives a fresh, empty one. */
export function describeSendOrderContract(name: string, open: () => Promise<SendOrder>): void {
  describe(`SendOrder contract: ${name}`, () => {
    const conv = "acme:106540352242922:2348012345678";
    let order: SendOrder;
    beforeEach(async () => {
      order = await open();
    });

    it("starts at 1 with no job", async () => {
      expect(await order.peek("acme", conv)).toEqual({ next: 1 });
      expect(await order.assign("acme", conv, [])).toEqual([]);
    });

    it("numbers job ids in send order, and gives a job id it already holds the same number", async () => {
      expect(await order.assign("acme", conv, ["a", "b"])).toEqual([1, 2]);
      expect(await order.assign("acme", conv, ["b", "c", "a"])).toEqual([2, 3, 1]);
      expect(await order.assign("acme", conv, ["d", "d"])).toEqual([4, 4]);
      expect(await order.peek("acme", conv)).toEqual({ next: 1, jobId: "a" });
      // Conversations and tenants count apart.
      expect(await order.assign("acme", `${conv}9`, ["a"])).toEqual([1]);
      expect(await order.assign("other", conv, ["x"])).toEqual([1]);
    });

    it("moves the cursor past every finished sequence, whatever order they finish in", async () => {
      await order.assign("acme", conv, ["a", "b", "c", "d"]);
      expect(await order.finish("acme", conv, 2)).toEqual({ next: 1, jobId: "a" });
      expect(await order.finish("acme", conv, 3)).toEqual({ next: 1, jobId: "a" });
      expect(await order.finish("acme", conv, 1)).toEqual({ next: 4, jobId: "d" });
      expect(await order.peek("acme", conv)).toEqual({ next: 4, jobId: "d" });
      // Finishing again changes nothing.
      expect(await order.finish("acme", conv, 1)).toEqual({ next: 4, jobId: "d" });
      expect(await order.finish("acme", conv, 3)).toEqual({ next: 4, jobId: "d" });
      expect(await order.finish("acme", conv, 4)).toEqual({ next: 5 });
      expect(await order.peek("acme", conv)).toEqual({ next: 5 });
    });

    it("forgets a job id once the cursor passes it: enqueued again, it gets a new number", async () => {
      await order.assign("acme", conv, ["a", "b"]);
      await order.finish("acme", conv, 1);
      expect(await order.assign("acme", conv, ["a", "b"])).toEqual([3, 2]);
      expect(await order.finish("acme", conv, 2)).toEqual({ next: 3, jobId: "a" });
    });

    it("moves past a sequence finished before it was given out", async () => {
      expect(await order.finish("acme", conv, 1)).toEqual({ next: 2 });
      expect(await order.finish("acme", conv, 3)).toEqual({ next: 2 });
      expect(await order.assign("acme", conv, ["a", "b", "c"])).toEqual([1, 2, 3]);
      expect(await order.peek("acme", conv)).toEqual({ next: 2, jobId: "b" });
      expect(await order.finish("acme", conv, 2)).toEqual({ next: 4 });
    });
  });
}
