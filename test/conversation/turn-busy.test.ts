import { afterEach, describe, expect, it } from "vitest";
import { type Responder, ResponderBusyError } from "../../src/conversation/index.js";
import { eventually } from "../support/eventually.js";
import {
  BACKENDS,
  createGatewayHarness,
  type GatewayHarness,
  skipBackend,
} from "../support/gateway-harness.js";
import { textWebhook } from "../support/webhook-builder.js";

describe.each(BACKENDS)("a responder that is busy, on %s", (backend) => {
  let h: GatewayHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it.skipIf(skipBackend(backend))(
    "runs the turn again after the delay it asks for, marks the message read once, and answers once",
    async () => {
      const tries: number[] = [];
      const responder: Responder = {
        async respond() {
          tries.push(Date.now());
          if (tries.length <= 2) throw new ResponderBusyError("all slots busy", 300);
          return [{ text: "answered at last" }];
        },
        async respondToStale() {
          return [];
        },
      };
      const harness = await createGatewayHarness({
        backend,
        label: "turn-busy",
        tenant: { coalesce: { windowMs: 0, maxMs: 0 } },
        responder,
      });
      h = harness;
      const from = "2348055556666";
      const body = textWebhook([
        [{ wamid: "wamid.busy.1", from, timestamp: Math.floor(Date.now() / 1000), text: "hello?" }],
      ]);
      expect((await harness.post(body)).statusCode).toBe(200);
      await eventually(() => harness.fake.fake.messages({ to: from }).length === 1, 8000);
      expect(tries).toHaveLength(3);
      expect((tries[1] as number) - (tries[0] as number)).toBeGreaterThanOrEqual(280);
      const reads = harness.fake.fake.requests().filter((request) => request.kind === "read");
      expect(reads).toHaveLength(1);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(harness.fake.fake.messages({ to: from })).toHaveLength(1);
    },
  );
});
