import { afterEach, describe, expect, it } from "vitest";
import { createOutboundJobHandler } from "../../src/outbound/outbound-job-handler.js";
import type { SendOrderGate } from "../../src/outbound/send-order-gate.js";
import { type OutboundJob, type QueueJob, QueueUnavailableError } from "../../src/queue/index.js";
import { createGraphApiClient } from "../../src/whatsapp/index.js";
import { GRAPH_TOKEN, type RunningFake, startFake } from "../support/fake-graph.js";
import { bareSenderDeps, textReply } from "../support/outbound-harness.js";

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A reply job held in memory; `onUpdate` decides when an update lands (`land`), and whether it fails. */
function memoryJob(onUpdate: (next: OutboundJob, land: () => void) => Promise<void>) {
  const held = { data: { ...textReply("2348012345678", "turn-1"), seq: 1 } as OutboundJob };
  const job: QueueJob<OutboundJob> = {
    id: "out-1",
    get data() {
      return held.data;
    },
    updateData: (next) =>
      onUpdate(next, () => {
        held.data = next;
      }),
  };
  return { job, held };
}

describe("after Meta took a reply", () => {
  let fake: RunningFake | undefined;
  afterEach(async () => {
    await fake?.fake.close();
    fake = undefined;
  });

  it("advances the conversation's send order once the reply is marked sent, alongside its delivery record, not after it", async () => {
    fake = await startFake();
    const client = createGraphApiClient(
      {},
      { baseUrl: fake.url, version: "v25.0", token: GRAPH_TOKEN, timeoutMs: 5_000 },
    );
    const events: string[] = [];
    const { job, held } = memoryJob(async (next, land) => {
      if (next.sentWamid === undefined) {
        land();
        return;
      }
      // A slow store: each wait after the send is one round trip.
      events.push("mark written");
      await wait(40);
      land();
      events.push("mark acknowledged");
    });
    const order: SendOrderGate = {
      check: async () => "go",
      finish: async () => {
        events.push("order advanced");
      },
    } as unknown as SendOrderGate;
    const run = createOutboundJobHandler({
      ...bareSenderDeps(client),
      order,
      sent: {
        recordSent: async () => {
          events.push("delivery written");
          await wait(40);
          events.push("delivery acknowledged");
        },
      },
    });
    const outcome = await run(job);
    const wamid = fake.fake.messages()[0]?.id;
    expect(outcome).toEqual({ kind: "done", result: wamid });
    expect(held.data.sentWamid).toBe(wamid);
    // The mark first: a later reply may go only once this one cannot be sent again.
    expect(events).toEqual([
      "mark written",
      "mark acknowledged",
      "delivery written",
      "order advanced",
      "delivery acknowledged",
    ]);
  });
});

describe("a send whose run fails before Meta", () => {
  let fake: RunningFake | undefined;
  afterEach(async () => {
    await fake?.fake.close();
    fake = undefined;
  });

  /** The handler with an order gate that records each advance, and a job whose "sending" mark fails with `error`. */
  const runFailingAtMark = async (error: Error) => {
    fake = await startFake();
    const client = createGraphApiClient(
      {},
      { baseUrl: fake.url, version: "v25.0", token: GRAPH_TOKEN, timeoutMs: 5_000 },
    );
    const advanced: number[] = [];
    const order = {
      check: async () => "go",
      finish: async (data: OutboundJob) => {
        advanced.push(data.seq ?? -1);
      },
    } as unknown as SendOrderGate;
    const { job } = memoryJob(async (next, land) => {
      land();
      if (next.sending === true) throw error;
    });
    const run = createOutboundJobHandler({ ...bareSenderDeps(client), order });
    await expect(run(job)).rejects.toThrow(error.message);
    return { advanced, sent: fake.fake.messages().length };
  };

  it("does not advance the send order when the queue refused its write: the job runs again, and later replies wait for it", async () => {
    const refused = new QueueUnavailableError("a job's data could not be written (a full disk?)");
    expect(await runFailingAtMark(refused)).toEqual({ advanced: [], sent: 0 });
  });

  it("advances the send order when it fails on its own: the job ends, and later replies go", async () => {
    expect(await runFailingAtMark(new Error("the sender's own failure"))).toEqual({ advanced: [1], sent: 0 });
  });
});
