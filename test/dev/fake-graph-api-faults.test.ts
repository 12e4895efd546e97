import { afterEach, describe, expect, it } from "vitest";
import { createSeededRandom } from "../../src/dev/index.js";
import { eventually } from "../support/eventually.js";
import { startFake, textTo, trackFakes } from "../support/fake-graph.js";
import { fixtureJson } from "../support/meta-fixtures.js";

const fake = trackFakes(afterEach);

const customer = (i: number) => `+23480${String(i).padStart(8, "0")}`;

describe("fake Graph API: Meta's limits", () => {
  it("lets about 80 sends a second through per number and answers the rest 130429", async () => {
    const f = await fake({ limits: { throughput: {} } });
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => f.send(textTo(customer(i)))));
    const elapsedMs = performance.now() - started;
    const accepted = answers.filter((a) => a.status === 200).length;
    // A bucket of 80 refilled at 80/s: 80 at once, plus what refilled while the burst was in flight.
    expect(accepted).toBeGreaterThanOrEqual(80);
    expect(accepted).toBeLessThanOrEqual(80 + Math.ceil((80 * elapsedMs) / 1000));
    if (elapsedMs < 500) expect(accepted).toBeLessThan(125);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused.length).toBe(200 - accepted);
    for (const answer of refused) {
      expect(answer.status).toBe(400);
      expect(answer.json.error).toMatchObject({
        code: 130429,
        error_subcode: 2494055,
        error_data: {
          details: fixtureJson<{ error: { error_data: { details: string } } }>("send-error-130429").error
            .error_data.details,
        },
      });
    }
    // Another number has its own budget.
    expect((await f.send(textTo(customer(1)), { phoneNumberId: "109876543210987" })).status).toBe(200);
  });

  it("answers 131056 for a busy customer while another customer is fine", async () => {
    const f = await fake({ limits: { pair: { burst: 3 } } });
    const busy = [];
    for (let i = 0; i < 5; i++) busy.push(await f.send(textTo("+2348012345678")));
    expect(busy.map((a) => a.status)).toEqual([200, 200, 200, 400, 400]);
    expect(busy[4]?.json.error).toMatchObject({ code: 131056, type: "OAuthException" });
    expect(busy[4]?.json.error?.message).toBe(
      fixtureJson<{ error: { message: string } }>("send-error-131056").error.message,
    );
    expect((await f.send(textTo("+2348098765432"))).status).toBe(200);
  });

  it("refills the pair bucket one message per interval on the injected clock", async () => {
    let now = 1_000_000;
    const f = await fake({ limits: { pair: {} } }, { now: () => now });
    for (let i = 0; i < 10; i++) expect((await f.send(textTo("+2348012345678"))).status).toBe(200);
    expect((await f.send(textTo("+2348012345678"))).json.error?.code).toBe(131056);
    now += 6000;
    expect((await f.send(textTo("+2348012345678"))).status).toBe(200);
    expect((await f.send(textTo("+2348012345678"))).json.error?.code).toBe(131056);
  });
});

describe("fake Graph API: faults", () => {
  it("fails the same sends for the same seed with 500 / 131000", async () => {
    const outcomes = async () => {
      const f = await fake({ faults: { errorRate: 0.4 } }, { random: createSeededRandom(2026) });
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) {
        const { status, json } = await f.send(textTo(customer(i)));
        statuses.push(status);
        if (status !== 200)
          expect(json.error).toMatchObject({ code: 131000, message: "(#131000) Something went wrong" });
      }
      return statuses;
    };
    const first = await outcomes();
    expect(await outcomes()).toEqual(first);
    expect(first.filter((s) => s === 500).length).toBeGreaterThan(5);
    expect(first.filter((s) => s === 200).length).toBeGreaterThan(5);
    expect(new Set(first)).toEqual(new Set([200, 500]));
  });

  it("answers every Graph call 503 during an outage window set over HTTP, and recovers after it", async () => {
    let now = 5_000_000;
    const f = await fake({}, { now: () => now });
    f.fake.addMedia("m", { bytes: "x", mimeType: "image/png" });
    const set = await fetch(`${f.url}/_fake/faults`, {
      method: "POST",
      body: JSON.stringify({ outageForMs: 30_000 }),
    });
    expect(await set.json()).toMatchObject({ outageUntil: 5_030_000 });
    const during = await f.send(textTo("+2348012345678"));
    expect(during.status).toBe(503);
    expect(during.json.error?.code).toBe(131016);
    expect((await f.get("/v25.0/m")).status).toBe(503);
    now += 30_000;
    expect((await f.send(textTo("+2348012345678"))).status).toBe(200);
    expect((await f.get("/v25.0/m")).status).toBe(200);
  });

  it("forces 131047 for one customer and 190 for the next N sends", async () => {
    const f = await fake();
    f.fake.setFaults({
      forcedErrors: [
        { code: 131047, recipients: ["+2347031234567"] },
        { code: 190, times: 2 },
      ],
    });
    const stale = await f.send(textTo("+2347031234567"));
    expect(stale.status).toBe(400);
    expect(stale.json.error).toMatchObject({
      code: 131047,
      message: "(#131047) Re-engagement message",
      error_data: fixtureJson<{ error: { error_data: unknown } }>("send-error-131047").error.error_data,
    });
    const expired = [await f.send(textTo("+2348012345678")), await f.send(textTo("+2348098765432"))];
    for (const answer of expired) {
      expect(answer.status).toBe(401);
      expect(answer.json.error).toMatchObject({ code: 190, error_subcode: 463, type: "OAuthException" });
    }
    expect((await f.send(textTo("+2348012345678"))).status).toBe(200);
    expect((await f.send(textTo("+2347031234567"))).json.error?.code).toBe(131047);
  });

  it("delays answers by latencyMs", async () => {
    const f = await fake({ faults: { latencyMs: 150 } });
    const started = performance.now();
    expect((await f.send(textTo("+2348012345678"))).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });

  it("refuses fault settings it cannot honour", async () => {
    const f = await fake();
    const bad = await fetch(`${f.url}/_fake/faults`, {
      method: "POST",
      body: JSON.stringify({ errorRate: 2 }),
    });
    expect(bad.status).toBe(400);
    expect(f.fake.faults().errorRate).toBe(0);
  });

  it("never answers a hung send (the client gives up), and still closes promptly with one in flight", async () => {
    const f = await startFake({ faults: { hangRate: 1 } });
    const givenUp = f.send(textTo("+2348012345678"), { signal: AbortSignal.timeout(200) });
    await expect(givenUp).rejects.toThrow();
    const pending = f.send(textTo("+2348012345678")).then(
      () => "answered",
      () => "dropped",
    );
    await eventually(() => f.fake.requests().length === 2);
    expect(f.fake.requests().map((r) => r.outcome)).toEqual(["hung", "hung"]);
    expect(f.fake.messages()).toEqual([]);
    const started = performance.now();
    await f.fake.close();
    expect(performance.now() - started).toBeLessThan(2000);
    expect(await pending).toBe("dropped");
  });
});
