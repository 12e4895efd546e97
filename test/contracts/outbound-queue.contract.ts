import { beforeEach, describe, expect, it } from "vitest";
import {
  type OutboundQueue,
  type OutboundReply,
  OutboundReplyInvalidError,
  outboundJobId,
} from "../../src/outbound/index.js";
import type { OutboundJob } from "../../src/queue/index.js";

/** One backend's outbound queue, fresh and empty, with a probe listing the jobs it holds (any state). */
export interface OutboundBackend {
  readonly queue: OutboundQueue;
  queued(): Promise<{ readonly id: string; readonly data: OutboundJob; readonly state: string }[]>;
  /** Plays the sender: every queued job is run and completes (kept as the adapter keeps sent replies). */
  sendAll(): Promise<void>;
}

const PHONE = "106540352242922";
const convA = `acme:${PHONE}:2348012345678`;
const convB = `acme:${PHONE}:2348099999999`;

function reply(turnId: string, part: number, overrides: Partial<OutboundReply> = {}): OutboundReply {
  const conversationKey = overrides.conversationKey ?? convA;
  return {
    tenantId: "acme",
    phoneNumberId: PHONE,
    conversationKey,
    to: conversationKey.split(":")[2] as string,
    turnId,
    part,
    message: { type: "text", text: { body: `${turnId} part ${part}: your transfer dey on the way` } },
    ...overrides,
  };
}

/** The behaviour every OutboundQueue adapter must have. */
export function describeOutboundQueueContract(name: string, open: () => Promise<OutboundBackend>): void {
  describe(`OutboundQueue contract: ${name}`, () => {
    let b: OutboundBackend;
    beforeEach(async () => {
      b = await open();
    });
    const seqs = async () =>
      Object.fromEntries(
        (await b.queued()).map((job) => [`${job.data.turnId}/${job.data.part}`, job.data.seq]),
      );

    it("queues one job per (tenant, turn, part), however often it is enqueued", async () => {
      const parts = [reply("turn-1", 0), reply("turn-1", 1)];
      await b.queue.enqueue(parts);
      await b.queue.enqueue(parts);
      await b.queue.enqueue([reply("turn-1", 1)]);
      // Same turn id in another tenant, and another turn: jobs of their own.
      const otherTenant = reply("turn-1", 0, {
        tenantId: "globex",
        conversationKey: `globex:${PHONE}:2348012345678`,
      });
      await b.queue.enqueue([otherTenant, reply("turn-2", 0)]);
      const jobs = await b.queued();
      expect(jobs.map((job) => job.id).sort()).toEqual(
        [...parts, otherTenant, reply("turn-2", 0)].map((r) => outboundJobId(r)).sort(),
      );
      const first = jobs.find((job) => job.id === outboundJobId(reply("turn-1", 0)));
      expect(first?.data).toEqual({ ...reply("turn-1", 0), seq: 1 });
    });

    it("queues nothing again for a reply already sent (its job is kept)", async () => {
      await b.queue.enqueue([reply("turn-1", 0)]);
      await b.sendAll();
      expect((await b.queued()).map((job) => job.state)).toEqual(["completed"]);
      await b.queue.enqueue([reply("turn-1", 0), reply("turn-1", 1)]);
      const jobs = await b.queued();
      expect(jobs.map((job) => `${job.data.part}:${job.state}`).sort()).toEqual(["0:completed", "1:waiting"]);
    });

    it("resolves an empty enqueue with nothing queued", async () => {
      await b.queue.enqueue([]);
      expect(await b.queued()).toEqual([]);
    });

    const invalid: [string, OutboundReply][] = [
      ["no customer", { ...reply("bad", 0), to: undefined } as unknown as OutboundReply],
      ["both ids", reply("bad", 0, { recipient: "NG.1234567890" })],
      ["no message type", reply("bad", 0, { message: { text: { body: "hi" } } })],
      ["a negative part", reply("bad", -1)],
      ["a fractional part", reply("bad", 1.5)],
    ];
    for (const [what, bad] of invalid) {
      it(`refuses a reply with ${what}: OutboundReplyInvalidError, and nothing of the call is queued`, async () => {
        const call = b.queue.enqueue([reply("good", 0), bad]);
        await expect(call).rejects.toBeInstanceOf(OutboundReplyInvalidError);
        expect(await b.queued()).toEqual([]);
        // Nothing took a place in the send order either.
        await b.queue.enqueue([reply("good", 0)]);
        expect(await seqs()).toEqual({ "good/0": 1 });
      });
    }

    it("numbers replies in send order per conversation: turn order, then part order", async () => {
      await b.queue.enqueue([
        reply("t1", 0),
        reply("u1", 0, { conversationKey: convB, to: "2348099999999" }),
        reply("t1", 1),
      ]);
      await b.queue.enqueue([reply("t2", 0), reply("t2", 1)]);
      for (let n = 3; n < 8; n++) await b.queue.enqueue([reply(`t${n}`, 0)]);
      await b.queue.enqueue([reply("u2", 0, { conversationKey: convB, to: "2348099999999" })]);
      // A retried turn keeps its places.
      await b.queue.enqueue([reply("t1", 0), reply("t1", 1)]);
      expect(await seqs()).toEqual({
        "t1/0": 1,
        "t1/1": 2,
        "t2/0": 3,
        "t2/1": 4,
        "t3/0": 5,
        "t4/0": 6,
        "t5/0": 7,
        "t6/0": 8,
        "t7/0": 9,
        "u1/0": 1,
        "u2/0": 2,
      });
    });
  });
}
