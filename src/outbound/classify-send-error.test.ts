import { describe, expect, it } from "vitest";
import { createSeededRandom } from "../dev/index.js";
import {
  GraphApiError,
  ResponseTooLargeError,
  TransportError,
  UnexpectedResponseError,
} from "../whatsapp/index.js";
import { classifySendError, type SendAttempt } from "./index.js";

const first: SendAttempt = { attempt: 1, unknownOutcomeRetried: false };
const at = (attempt: number): SendAttempt => ({ attempt, unknownOutcomeRetried: false });
const graph = (graphCode: number | undefined, status = 400, extra: Partial<GraphApiError> = {}) =>
  new GraphApiError({ operation: "send message", status, graphCode, ...extra });
const maxRandom = () => 0.999_999;
const minRandom = () => 0;

describe("classifySendError: the issue's lists", () => {
  it.each([
    [1, 500],
    [2, 503],
    [131000, 500],
    [131016, 503],
    [131057, 400],
    [133004, 503],
  ])("retries transient code %i", (code, status) => {
    expect(classifySendError(graph(code, status), first)).toMatchObject({ action: "retry" });
  });

  it.each([130429, 131056, 80007, 4])("waits out throttle code %i", (code) => {
    expect(classifySendError(graph(code), first)).toMatchObject({ action: "wait" });
  });

  it.each([
    [131047, "reengagement_required", { reengage: true }],
    [131026, "undeliverable", {}],
    [131051, "unsupported_message_type", {}],
    [100, "invalid_request", {}],
    [190, "access_token_invalid", { pauseTenant: true }],
    [131050, "marketing_opt_out", {}],
    [130403, "recipient_blocked", {}],
    [131049, "permanent_error", {}],
    [131021, "permanent_error", {}],
    [132001, "permanent_error", {}],
    [368, "policy_blocked", { pauseNumber: true }],
    [131053, "permanent_error", {}],
  ] as const)("gives up on %i (%s)", (code, reason, flags) => {
    const decision = classifySendError(graph(code, code === 190 ? 401 : 400), first);
    expect(decision).toEqual({ action: "give_up", reason, code, ...flags });
  });

  it("waits out 613, the Graph API's own rate limit answered with HTTP 429, honouring Retry-After", () => {
    expect(classifySendError(graph(613, 429), first)).toMatchObject({ action: "wait" });
    const hinted = classifySendError(graph(613, 429, { retryAfterMs: 30_000 }), first, { random: minRandom });
    expect(hinted).toEqual({ action: "wait", delayMs: 30_000 });
  });

  it("retries a media upload error (131053) whose media host answered 429, and gives up on another", () => {
    const throttled = graph(131053, 400, {
      details: "Downloading media from weblink failed with http code 429, status message Too Many Requests",
    });
    expect(classifySendError(throttled, first)).toMatchObject({ action: "retry" });
    const badMime = graph(131053, 400, {
      details: "Param file must be a file with one of the following types",
    });
    expect(classifySendError(badMime, first)).toMatchObject({ action: "give_up", code: 131053 });
  });

  it("gives up on a named permanent code even with HTTP 5xx, and retries an unknown code Meta marks transient", () => {
    expect(classifySendError(graph(100, 500), first)).toMatchObject({ action: "give_up", code: 100 });
    expect(classifySendError(graph(999_999, 400, { isTransient: true }), first)).toMatchObject({
      action: "retry",
    });
  });

  it("retries a 5xx without a Graph body, waits on a bare 429, gives up on a bare 404", () => {
    expect(classifySendError(graph(undefined, 502), first).action).toBe("retry");
    expect(classifySendError(graph(undefined, 429), first).action).toBe("wait");
    expect(classifySendError(graph(undefined, 404), first)).toEqual({
      action: "give_up",
      reason: "permanent_error",
      code: undefined,
    });
  });
});

describe("classifySendError: network failures and unknown outcomes", () => {
  const notSent = new TransportError("send message", "network", false, "ECONNREFUSED");
  const timedOut = new TransportError("send message", "timeout", true, "no answer");

  it("retries a request that never left", () => {
    expect(classifySendError(notSent, first).action).toBe("retry");
    expect(classifySendError(notSent, { attempt: 3, unknownOutcomeRetried: true }).action).toBe("retry");
  });

  it("retries an unknown outcome once, then gives up", () => {
    expect(classifySendError(timedOut, first).action).toBe("retry_once_unknown");
    expect(classifySendError(timedOut, { attempt: 2, unknownOutcomeRetried: true })).toEqual({
      action: "give_up",
      reason: "outcome_unknown",
      code: undefined,
    });
  });

  it("never resends after a 2xx it could not read, and gives up on foreign errors", () => {
    expect(classifySendError(new UnexpectedResponseError("send message", 200, "x"), first)).toMatchObject({
      action: "give_up",
      reason: "unexpected_response",
    });
    expect(classifySendError(new ResponseTooLargeError("send message", 10), first)).toMatchObject({
      reason: "unexpected_response",
    });
    expect(classifySendError(new Error("bug"), first)).toMatchObject({ reason: "unexpected_error" });
  });
});

describe("classifySendError: delays", () => {
  it("doubles the retry backoff from 1 s and caps it at 5 min", () => {
    const ceilings = [1, 2, 3, 4, 5, 9, 10, 11].map(
      (n) =>
        classifySendError(graph(131000, 500), at(n), { random: maxRandom, maxAttempts: 50 }) as {
          delayMs: number;
        },
    );
    expect(ceilings.map((d) => d.delayMs)).toEqual([
      1000, 2000, 4000, 8000, 16_000, 256_000, 300_000, 300_000,
    ]);
  });

  it("keeps jittered retries within [½, 1] of the ceiling for a seeded random", () => {
    const random = createSeededRandom(42);
    const seen = new Set<number>();
    for (let i = 0; i < 500; i++) {
      const attempt = 1 + (i % 12);
      const ceiling = Math.min(300_000, 1000 * 2 ** (attempt - 1));
      const decision = classifySendError(
        new TransportError("send message", "network", false, "ECONNRESET"),
        at(attempt),
        { random, maxAttempts: 100 },
      );
      if (decision.action !== "retry") throw new Error(decision.action);
      expect(decision.delayMs).toBeGreaterThanOrEqual(ceiling / 2);
      expect(decision.delayMs).toBeLessThanOrEqual(ceiling);
      seen.add(decision.delayMs);
    }
    expect(seen.size).toBeGreaterThan(100);
    expect(classifySendError(graph(131000, 500), first, { random: minRandom })).toEqual({
      action: "retry",
      delayMs: 500,
    });
  });

  it("waits 4^X s on the pair limit, never sooner than Meta advises, capped at 5 min", () => {
    const random = createSeededRandom(7);
    for (const [attempt, advice] of [
      [1, 1000],
      [2, 4000],
      [3, 16_000],
      [4, 64_000],
      [5, 256_000],
    ] as const) {
      const decision = classifySendError(graph(131056), at(attempt), { random });
      if (decision.action !== "wait") throw new Error(decision.action);
      expect(decision.delayMs).toBeGreaterThanOrEqual(advice);
      expect(decision.delayMs).toBeLessThanOrEqual(Math.min(300_000, advice * 1.25));
    }
    expect(classifySendError(graph(131056), at(6), { random: maxRandom })).toEqual({
      action: "wait",
      delayMs: 300_000,
    });
  });

  it("waits minutes on app and WABA limits and seconds on throughput", () => {
    expect(classifySendError(graph(80007), first, { random: minRandom })).toEqual({
      action: "wait",
      delayMs: 60_000,
    });
    expect(classifySendError(graph(4), at(2), { random: minRandom })).toEqual({
      action: "wait",
      delayMs: 120_000,
    });
    expect(classifySendError(graph(130429), first, { random: minRandom })).toEqual({
      action: "wait",
      delayMs: 1000,
    });
  });

  it("honours Meta's wait hint beyond the cap, up to 1 h, and the 1 min floor of maintenance mode", () => {
    const hinted = (retryAfterMs: number) => graph(80007, 400, { retryAfterMs });
    expect(classifySendError(hinted(600_000), first, { random: minRandom })).toEqual({
      action: "wait",
      delayMs: 600_000,
    });
    expect(classifySendError(hinted(86_400_000), first, { random: minRandom })).toMatchObject({
      delayMs: 3_600_000,
    });
    expect(classifySendError(graph(131057), first, { random: minRandom })).toEqual({
      action: "retry",
      delayMs: 60_000,
    });
  });

  it("gives up after maxAttempts, keeping Meta's code", () => {
    expect(classifySendError(graph(131000, 500), at(12))).toEqual({
      action: "give_up",
      reason: "attempts_exhausted",
      code: 131000,
    });
    expect(classifySendError(graph(131000, 500), at(3), { maxAttempts: 3 })).toMatchObject({
      reason: "attempts_exhausted",
    });
    expect(classifySendError(graph(131000, 500), at(11)).action).toBe("retry");
  });
});
