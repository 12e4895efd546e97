import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "./canonical-json.js";
import { idempotencyKeyFor } from "./idempotency-key.js";

const BASE = {
  tenantId: "mama-put-foods",
  turnId: "turn-8yq3nQ2b0pX4mF1c9VtL7sKe5RjHwZaD",
  toolName: "refund_order",
  callIndex: 0,
};

/** The same data with every object's keys in another order (a seeded shuffle). */
function reordered(value: unknown, seed: number): unknown {
  if (Array.isArray(value)) return value.map((item, index) => reordered(item, seed + index + 1));
  if (value === null || typeof value !== "object") return value;
  const entries = Object.entries(value);
  let state = seed >>> 0;
  for (let i = entries.length - 1; i > 0; i--) {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    const j = state % (i + 1);
    [entries[i], entries[j]] = [entries[j] as [string, unknown], entries[i] as [string, unknown]];
  }
  // fromEntries defines own properties, so a "__proto__" key stays data.
  return Object.fromEntries(entries.map(([key, item], index) => [key, reordered(item, seed * 31 + index)]));
}

describe("canonicalJson", () => {
  it("sorts keys at every depth, keeps arrays in order, and leaves undefined properties out", () => {
    expect(canonicalJson({ b: 1, a: [3, { d: 1, c: undefined, b: null }, "x"] })).toBe(
      '{"a":[3,{"b":null,"d":1},"x"],"b":1}',
    );
    expect(canonicalJson(undefined)).toBe("null");
    expect(canonicalJson([undefined])).toBe("[null]");
  });
});

describe("idempotencyKeyFor", () => {
  it("is ss- and 32 lower-case hex digits, stable for the same call", () => {
    const key = idempotencyKeyFor(BASE);
    expect(key).toMatch(/^ss-[0-9a-f]{32}$/);
    expect(idempotencyKeyFor(structuredClone(BASE))).toBe(key);
  });

  it("changes with every part of the call", () => {
    const keys = [
      BASE,
      { ...BASE, tenantId: "other" },
      { ...BASE, turnId: "turn-other" },
      { ...BASE, toolName: "cancel_order" },
      { ...BASE, callIndex: 1 },
      // The same text in another field must not collide.
      { ...BASE, tenantId: "mama-put-foods:x", turnId: "" },
    ].map(idempotencyKeyFor);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("property: any call index of any tool in any turn gives its own key, and the same one again", () => {
    fc.assert(
      fc.property(fc.nat(1000), fc.nat(1000), fc.string(), (a, b, tool) => {
        fc.pre(a !== b);
        const first = idempotencyKeyFor({ ...BASE, toolName: tool, callIndex: a });
        expect(idempotencyKeyFor({ ...BASE, toolName: tool, callIndex: a })).toBe(first);
        expect(idempotencyKeyFor({ ...BASE, toolName: tool, callIndex: b })).not.toBe(first);
      }),
      { numRuns: 300 },
    );
  });
});

describe("canonicalJson, as the key's input", () => {
  it("property: the same data in any key order gives the same text", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(), (args, seed) => {
        expect(canonicalJson(reordered(args, seed))).toBe(canonicalJson(args));
      }),
      { numRuns: 300 },
    );
  });
});
