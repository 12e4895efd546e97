import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "./canonical-json.js";
import { idempotencyKeyFor } from "./idempotency-key.js";

const BASE = {
  tenantId: "mama-put-foods",
  conversationKey: "mama-put-foods:106540352242922:2348012345678",
  messageIds: ["wamid.A", "wamid.B"],
  toolName: "refund_order",
  args: { orderId: "A1", items: [{ sku: "jollof", qty: 2 }] },
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

  it("does not depend on the order of the turn's message ids", () => {
    expect(idempotencyKeyFor({ ...BASE, messageIds: ["wamid.B", "wamid.A"] })).toBe(idempotencyKeyFor(BASE));
  });

  it("changes with every part of the call", () => {
    const keys = [
      BASE,
      { ...BASE, tenantId: "other" },
      { ...BASE, conversationKey: "mama-put-foods:106540352242922:2348099999999" },
      { ...BASE, messageIds: ["wamid.A"] },
      { ...BASE, messageIds: ["wamid.A", "wamid.B", "wamid.C"] },
      { ...BASE, toolName: "cancel_order" },
      { ...BASE, args: { orderId: "A2", items: [{ sku: "jollof", qty: 2 }] } },
      { ...BASE, args: { orderId: "A1", items: [{ sku: "jollof", qty: 3 }] } },
      { ...BASE, args: { orderId: "A1", items: [] } },
      { ...BASE, args: { orderId: "A1" } },
      // The same text in another field must not collide.
      { ...BASE, tenantId: "mama-put-foods:x", conversationKey: "" },
    ].map(idempotencyKeyFor);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("property: the same arguments in any key order give the same key", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(), (args, seed) => {
        const shuffled = reordered(args, seed);
        expect(canonicalJson(shuffled)).toBe(canonicalJson(args));
        expect(idempotencyKeyFor({ ...BASE, args: shuffled })).toBe(idempotencyKeyFor({ ...BASE, args }));
      }),
      { numRuns: 300 },
    );
  });

  it("property: different arguments give different keys", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        fc.pre(canonicalJson(a) !== canonicalJson(b));
        expect(idempotencyKeyFor({ ...BASE, args: a })).not.toBe(idempotencyKeyFor({ ...BASE, args: b }));
      }),
      { numRuns: 300 },
    );
  });
});
