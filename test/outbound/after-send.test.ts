import { afterEach, describe, expect, it } from "vitest";
import { createOutboundJobHandler } from "../../src/outbound/outbound-job-handler.js";
import type { SendOrderGate } from "../../src/outbound/send-order-gate.js";
import type { OutboundJob, QueueJob } from "../../src/queue/index.js";
import { createGraphApiClient } from "../../src/whatsapp/index.js";
import { GRAPH_TOKEN, type RunningFake, startFake } from "../support/fake-graph.js";
import { bareSenderDeps, textReply } from "../support/outbound-harness.js";

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
    let data = { ...textReply("2348012345678", "turn-1"), seq: 1 } as OutboundJob;
    const job: QueueJob<OutboundJob> = {
      id: "out-1",
      get data() {
        return data;
      },
      async updateData(next) {
        if (next.sentWamid === undefined) {
          data = next;
          return;
        }
        // A slow store: each wait after the send is one round trip.
        events.push("mark written");
        await wait(40);
        data = next;
        events.push("mark acknowledged");
      },
    };
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
    expect(data.sentWamid).toBe(wamid);
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
