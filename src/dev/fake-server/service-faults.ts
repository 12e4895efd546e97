import { z } from "zod";
import type { HeldRequests } from "./held-requests.js";

/** Statuses a fake OpenAI-compatible service can inject as faults (errorStatus, failNext.status). */
export const FAULT_STATUSES = [429, 500, 502, 503, 504] as const;
export type FaultStatus = (typeof FAULT_STATUSES)[number];

/** A fixed delay, or `[min, max]` drawn uniformly per request (ms). */
export type LatencySetting = number | readonly [number, number];

/** The faults in force in a fake OpenAI-compatible service (the fake LLM, the fake speech server). */
export interface ServiceFaultSettings {
  /** Share of requests (0–1) answered with `errorStatus`. */
  readonly errorRate: number;
  /** 500 by default; 429 also sends `retry-after: 1`. */
  readonly errorStatus: FaultStatus;
  /** The next `count` requests fail with `status` (count 0: off). */
  readonly failNext: { readonly count: number; readonly status: FaultStatus };
  /** Every request is held without an answer until the hang is lifted or the fake closes. */
  readonly hang: boolean;
  /** The next N requests are held like `hang`. */
  readonly hangNext: number;
  /** Delay before every answer or fault answer, ms. */
  readonly latencyMs: LatencySetting;
  /** Requests held right now (read only). */
  readonly held: number;
}

const whole = z.number().int().min(0);
const status = z.literal(FAULT_STATUSES);

export const latencySchema = z.union([
  whole,
  z
    .tuple([whole, whole])
    .readonly()
    .refine(([min, max]) => min <= max, "latency [min, max] needs min <= max"),
]);

/**
 * A change of faults: given fields replace the current ones; `reset` first
 * clears every fault (latency too). Turning `hang` off (or reset) lets
 * every held request go on.
 */
export const faultPatchSchema = z.strictObject({
  reset: z.boolean().optional(),
  errorRate: z.number().min(0).max(1).optional(),
  errorStatus: status.optional(),
  failNext: z.strictObject({ count: whole, status: status.default(500) }).optional(),
  hang: z.boolean().optional(),
  hangNext: whole.optional(),
  latencyMs: latencySchema.optional(),
});
export type ServiceFaultPatch = z.input<typeof faultPatchSchema>;

/** Fault state with its dice: every decision a route makes about faults. */
export interface Faults {
  settings(): ServiceFaultSettings;
  /** Throws a ZodError for a patch it cannot honour, changing nothing. */
  update(patch: ServiceFaultPatch): ServiceFaultSettings;
  /** Whether this request must be held (counts it against hangNext). */
  takeHang(): boolean;
  /** The status this request must fail with, if any (failNext first, then errorRate). */
  takeFailure(): FaultStatus | undefined;
  /** This request's delay, ms. */
  rollLatency(): number;
}

/** Faults on an injected random source, so a seeded run rolls the same errors and delays. */
export function createFaults(
  initial: ServiceFaultPatch,
  deps: { readonly random: () => number; readonly held: HeldRequests },
): Faults {
  let errorRate = 0;
  let errorStatus: FaultStatus = 500;
  let failNext = { count: 0, status: 500 as FaultStatus };
  let hang = false;
  let hangNext = 0;
  let latencyMs: LatencySetting = 0;

  const settings = (): ServiceFaultSettings => ({
    errorRate,
    errorStatus,
    failNext: { ...failNext },
    hang,
    hangNext,
    latencyMs,
    held: deps.held.size(),
  });

  const update = (patch: ServiceFaultPatch): ServiceFaultSettings => {
    const valid = faultPatchSchema.parse(patch);
    if (valid.reset === true) {
      errorRate = hangNext = latencyMs = 0;
      errorStatus = 500;
      failNext = { count: 0, status: 500 };
      hang = false;
    }
    errorRate = valid.errorRate ?? errorRate;
    errorStatus = valid.errorStatus ?? errorStatus;
    failNext = valid.failNext ?? failNext;
    hang = valid.hang ?? hang;
    hangNext = valid.hangNext ?? hangNext;
    latencyMs = valid.latencyMs ?? latencyMs;
    if (valid.reset === true || valid.hang === false) deps.held.release();
    return settings();
  };

  update(initial);
  return {
    settings,
    update,
    takeHang() {
      if (hang) return true;
      if (hangNext === 0) return false;
      hangNext -= 1;
      return true;
    },
    takeFailure() {
      if (failNext.count > 0) {
        failNext = { ...failNext, count: failNext.count - 1 };
        return failNext.status;
      }
      return errorRate > 0 && deps.random() < errorRate ? errorStatus : undefined;
    },
    rollLatency() {
      if (typeof latencyMs === "number") return latencyMs;
      const [min, max] = latencyMs;
      return Math.round(min + deps.random() * (max - min));
    },
  };
}
