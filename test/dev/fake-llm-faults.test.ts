import { request as httpRequest } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { createSeededRandom } from "../../src/dev/index.js";
import { eventually } from "../support/eventually.js";
import { startFakeLlm, trackFakeLlms, userSays } from "../support/fake-llm.js";

const fake = trackFakeLlms(afterEach);

describe("fake LLM: faults", () => {
  it("fails a seeded share of requests with errorRate: 500 by default", async () => {
    const f = await fake({ faults: { errorRate: 0.3 } }, { random: createSeededRandom(2026) });
    const answers = [];
    for (let i = 0; i < 100; i++) answers.push(await f.chat(userSays(`message ${i}`)));
    const failed = answers.filter((a) => a.status !== 200);
    expect(failed.length).toBeGreaterThan(15);
    expect(failed.length).toBeLessThan(45);
    for (const answer of failed) {
      expect(answer.status).toBe(500);
      expect(answer.json.error).toMatchObject({ type: "server_error", param: null, code: null });
    }
    // The same seed fails the same requests.
    const again = await fake({ faults: { errorRate: 0.3 } }, { random: createSeededRandom(2026) });
    const statuses = [];
    for (let i = 0; i < 100; i++) statuses.push((await again.chat(userSays(`message ${i}`))).status);
    expect(statuses).toEqual(answers.map((a) => a.status));
  });

  it("answers 429 with retry-after: 1, from errorStatus or failNext", async () => {
    const f = await fake({ faults: { errorRate: 1, errorStatus: 429 } });
    const limited = await f.chat(userSays("hi"));
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("1");
    expect(limited.json.error).toMatchObject({ code: "rate_limit_exceeded" });

    f.fake.setFaults({ reset: true, failNext: { count: 2, status: 429 } });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await f.chat(userSays("hi"))).status);
    expect(statuses).toEqual([429, 429, 200]);
  });

  it("fails exactly the next N with failNext (500), then answers again", async () => {
    const f = await fake();
    f.fake.setFaults({ failNext: { count: 3 } });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await f.chat(userSays("hi"))).status);
    expect(statuses).toEqual([500, 500, 500, 200, 200]);
    expect(f.fake.requests().map((r) => r.error ?? null)).toEqual([
      "server_error",
      "server_error",
      "server_error",
      null,
      null,
    ]);
  });

  it("holds requests with hang until the hang is lifted, then answers them", async () => {
    const f = await fake({ faults: { hang: true } });
    const pending = [f.chat(userSays("one")), f.chat(userSays("two"))];
    await eventually(() => f.fake.faults().held === 2);
    expect(f.fake.requests().map((r) => r.outcome)).toEqual(["hung", "hung"]);
    f.fake.setFaults({ hang: false });
    const answers = await Promise.all(pending);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(f.fake.requests().map((r) => r.outcome)).toEqual(["answered", "answered"]);
  });

  it("records a held request the client gave up on as abandoned, and stops holding it", async () => {
    const f = await fake({ faults: { hang: true } });
    const giveUp = new AbortController();
    const answer = f.chat(userSays("hello?"), { signal: giveUp.signal }).catch((error: Error) => error.name);
    await eventually(() => f.fake.faults().held === 1);
    giveUp.abort();
    expect(await answer).toBe("AbortError");
    await eventually(() => f.fake.requests()[0]?.outcome === "abandoned");
    expect(f.fake.faults().held).toBe(0);
  });

  it("holds only the next N with hangNext", async () => {
    const f = await fake({ faults: { hangNext: 1 } });
    const held = f.chat(userSays("held"));
    await eventually(() => f.fake.faults().held === 1);
    expect((await f.chat(userSays("next"))).status).toBe(200);
    await fetch(`${f.url}/_fake/faults`, { method: "POST", body: '{"hang": false}' });
    expect((await held).status).toBe(200);
  });

  it("closes promptly while requests hang: the connections are dropped, no socket left open", async () => {
    const f = await startFakeLlm({ faults: { hang: true } });
    const { port } = new URL(f.url);
    // A raw request, so the test sees its socket close.
    const req = httpRequest({ host: "127.0.0.1", port, method: "POST", path: "/v1/chat/completions" });
    req.on("error", () => undefined);
    req.end(JSON.stringify(userSays("hello?")));
    // Not events.once: the request's "error" (socket hang up) would reject it.
    const socketClosed = new Promise((resolve) => req.on("close", resolve));
    const viaFetch = f.chat(userSays("and you?")).then(
      () => "answered",
      () => "failed",
    );
    await eventually(() => f.fake.faults().held === 2);

    const started = performance.now();
    await f.fake.close();
    expect(performance.now() - started).toBeLessThan(1000);
    await socketClosed;
    expect(await viaFetch).toBe("failed");
    expect(f.fake.requests().map((r) => r.outcome)).toEqual(["dropped", "dropped"]);
    expect(f.fake.app.server.listening).toBe(false);
  });

  it("answers after a latency within [min, max]", async () => {
    const f = await fake({ latencyMs: [150, 300] });
    const times = [];
    for (let i = 0; i < 6; i++) {
      const started = performance.now();
      expect((await f.chat(userSays("hi"))).status).toBe(200);
      times.push(performance.now() - started);
    }
    // Loosely: timers never fire early, and a loaded machine may add some.
    for (const ms of times) {
      expect(ms).toBeGreaterThanOrEqual(145);
      expect(ms).toBeLessThan(300 + 400);
    }
    const fixed = await fake({ latencyMs: 100 });
    const started = performance.now();
    await fixed.chat(userSays("hi"));
    expect(performance.now() - started).toBeGreaterThanOrEqual(95);
  });

  it("closing during a latency answers 503 at once rather than waiting it out", async () => {
    const f = await startFakeLlm({ latencyMs: 10_000 });
    const answer = f.chat(userSays("hi"));
    await eventually(() => f.fake.requests().length === 1);
    const started = performance.now();
    await f.fake.close();
    expect((await answer).status).toBe(503);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
