import { afterEach, describe, expect, it } from "vitest";
import { createSendReply } from "../../src/outbound/send-reply.js";
import type { JobOutcome, OutboundJob, QueueJob } from "../../src/queue/index.js";
import { createGraphApiClient } from "../../src/whatsapp/index.js";
import { GRAPH_TOKEN, type RunningFake, startFake } from "../support/fake-graph.js";
import { bareSenderDeps, textReply } from "../support/outbound-harness.js";

/**
 * A job as a queue keeps it: `kept` is what the queue has; while `cutOff`, writes fail (Redis cut off, a
 * commit that failed) and the queue keeps what it had.
 */
function keptJob(id: string, data: OutboundJob) {
  const queue = { kept: data, cutOff: false };
  const run = (): QueueJob<OutboundJob> => {
    let current = queue.kept;
    return {
      id,
      get data() {
        return current;
      },
      async updateData(next) {
        if (queue.cutOff) throw new Error("Connection is closed.");
        queue.kept = next;
        current = next;
      },
    };
  };
  return { queue, run };
}

type GraphClient = ReturnType<typeof createGraphApiClient>;

/** The sender, with `afterSend` run as Meta's answer arrives (before the sender sees it). */
function senderFor(client: GraphClient, afterSend: () => void = () => {}) {
  return createSendReply({
    ...bareSenderDeps(client),
    graphClientFor: () => ({
      ...client,
      sendMessage: async (phoneNumberId, body) => {
        const answered = await client.sendMessage(phoneNumberId, body);
        afterSend();
        return answered;
      },
    }),
  });
}

/**
 * A job as the embedded runner holds back one whose writes failed (a full disk): the next run sees the
 * data the last run left in memory, whether or not its write was kept.
 */
function heldBackJob(id: string, data: OutboundJob) {
  const state = { current: data, refusing: false, ownerChecks: 0, ownedChecks: Number.POSITIVE_INFINITY };
  const run = (): QueueJob<OutboundJob> => ({
    id,
    get data() {
      return state.current;
    },
    async updateData(next) {
      state.current = next;
      if (state.refusing) throw Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });
    },
    // As the embedded runner, no ownership to check, unless the test hands the job over after
    // `ownedChecks` checks (as BullMQ's lock lapsing does).
    ...(Number.isFinite(state.ownedChecks)
      ? {
          async ensureOwned() {
            state.ownerChecks += 1;
            if (state.ownerChecks > state.ownedChecks) throw new Error("the job was taken over");
          },
        }
      : {}),
  });
  return { state, run };
}

describe("a reply whose 'sent' mark the queue lost", () => {
  let fake: RunningFake | undefined;
  afterEach(async () => {
    await fake?.fake.close();
    fake = undefined;
  });

  it("is not sent again by the worker that sent it: the job ends with the wamid Meta gave", async () => {
    fake = await startFake();
    const client = createGraphApiClient(
      {},
      { baseUrl: fake.url, version: "v25.0", token: GRAPH_TOKEN, timeoutMs: 5_000 },
    );
    const job = keptJob("out-1", { ...textReply("2348012345678", "turn-1"), seq: 1 } as OutboundJob);
    // The queue is cut off as Meta answers: the "sent" mark and the job's end are lost.
    const send = senderFor(client, () => {
      job.queue.cutOff = true;
    });
    const firstOutcome: JobOutcome = await send(job.run());
    expect(job.queue.kept.sending).toBe(true);
    expect(job.queue.kept.sentWamid).toBeUndefined();
    // Back: the queue runs the job again as it kept it, "sending" with no wamid.
    job.queue.cutOff = false;
    const secondOutcome = await send(job.run());
    expect(fake.fake.messages()).toHaveLength(1);
    const wamid = fake.fake.messages()[0]?.id;
    expect(firstOutcome).toEqual({ kind: "done", result: wamid });
    expect(secondOutcome).toEqual({ kind: "done", result: wamid });
  });
});

describe("a reply whose 'sending' mark could not be kept", () => {
  let fake: RunningFake | undefined;
  afterEach(async () => {
    await fake?.fake.close();
    fake = undefined;
  });

  it("is sent once when the disk has room again, not given up as a send whose outcome is unknown", async () => {
    fake = await startFake();
    const client = createGraphApiClient(
      {},
      { baseUrl: fake.url, version: "v25.0", token: GRAPH_TOKEN, timeoutMs: 5_000 },
    );
    const job = heldBackJob("out-1", { ...textReply("2348012345678", "turn-1"), seq: 1 } as OutboundJob);
    const send = senderFor(client);
    // Two runs on a full disk: each fails at its "sending" mark, before anything goes to Meta.
    job.state.refusing = true;
    await expect(send(job.run())).rejects.toThrow(/disk is full/);
    await expect(send(job.run())).rejects.toThrow(/disk is full/);
    expect(fake.fake.messages()).toHaveLength(0);
    job.state.refusing = false;
    const outcome = await send(job.run());
    expect(fake.fake.messages()).toHaveLength(1);
    expect(outcome).toEqual({ kind: "done", result: fake.fake.messages()[0]?.id });
  });

  it("does not take back a mark once another worker took the job over", async () => {
    fake = await startFake();
    const client = createGraphApiClient(
      {},
      { baseUrl: fake.url, version: "v25.0", token: GRAPH_TOKEN, timeoutMs: 5_000 },
    );
    const job = heldBackJob("out-1", { ...textReply("2348012345678", "turn-1"), seq: 1 } as OutboundJob);
    // Owned at the check before the mark, taken over by the time the mark has failed.
    job.state.ownedChecks = 1;
    job.state.refusing = true;
    await expect(senderFor(client)(job.run())).rejects.toThrow(/disk is full/);
    expect(job.state.current.sending).toBe(true);
    expect(fake.fake.messages()).toHaveLength(0);
  });
});
