import { z } from "zod";
import { FORCEABLE_ERROR_CODES, type ForceableErrorCode } from "./graph-error.js";
import { createMediaFaults, type MediaFault, type MediaFaults, mediaFaultSchema } from "./media-faults.js";
import { customerKey } from "./validate-send.js";

/** An error forced onto message sends. */
export interface ForcedError {
  readonly code: ForceableErrorCode;
  /** How many matching sends get it; unset = every matching send until cleared. */
  readonly times?: number;
  /** Only sends to these customers (`to` or `recipient`); unset = any customer. */
  readonly recipients?: readonly string[];
}

/** The faults in force. */
export interface FaultSettings {
  /** Share of message sends (0–1) answered 500 with error 131000. */
  readonly errorRate: number;
  /** Delay before every Graph API answer, ms. */
  readonly latencyMs: number;
  /** Share of message sends (0–1) never answered: the client has to give up. */
  readonly hangRate: number;
  /** Until this time (ms since the epoch) every Graph API call is answered 503 (error 131016). */
  readonly outageUntil?: number;
  readonly forcedErrors: readonly ForcedError[];
  /** Faults on media ids: expired URLs, corrupted bytes, failing downloads or lookups. */
  readonly mediaFaults: readonly MediaFault[];
}

const forcedErrorSchema = z.strictObject({
  code: z.literal(FORCEABLE_ERROR_CODES),
  times: z.number().int().positive().optional(),
  recipients: z.array(z.string().min(1)).optional(),
});

/** A change of faults: given fields replace the current ones; `reset` first clears everything. */
export const faultPatchSchema = z.strictObject({
  reset: z.boolean().optional(),
  errorRate: z.number().min(0).max(1).optional(),
  latencyMs: z.number().int().min(0).optional(),
  hangRate: z.number().min(0).max(1).optional(),
  outageUntil: z.number().int().min(0).nullable().optional(),
  outageForMs: z.number().int().min(0).optional(),
  forcedErrors: z.array(forcedErrorSchema).optional(),
  mediaFaults: z.array(mediaFaultSchema).optional(),
});
export type FaultPatch = z.infer<typeof faultPatchSchema>;

/** Fault state with its dice: every decision the send path makes about faults. */
export interface Faults {
  settings(): FaultSettings;
  update(patch: FaultPatch): FaultSettings;
  inOutage(): boolean;
  rollHang(): boolean;
  rollError(): boolean;
  /** The forced error for a send to `address`, counting it against `times`. */
  takeForced(address: string): ForceableErrorCode | undefined;
  /** The media faults, counted as the media routes answer. */
  readonly media: MediaFaults;
}

interface ActiveForcedError {
  readonly code: ForceableErrorCode;
  remaining: number | undefined;
  readonly recipients: ReadonlySet<string> | undefined;
}

/** Faults on an injected clock and random source (so a seeded test is deterministic). */
export function createFaults(initial: FaultPatch, deps: { now: () => number; random: () => number }): Faults {
  let errorRate = 0;
  let latencyMs = 0;
  let hangRate = 0;
  let outageUntil: number | undefined;
  let forced: ActiveForcedError[] = [];
  const media = createMediaFaults();

  const roll = (rate: number) => rate > 0 && deps.random() < rate;
  const settings = (): FaultSettings => ({
    errorRate,
    latencyMs,
    hangRate,
    ...(outageUntil === undefined ? {} : { outageUntil }),
    forcedErrors: forced.map((entry) => ({
      code: entry.code,
      ...(entry.remaining === undefined ? {} : { times: entry.remaining }),
      ...(entry.recipients === undefined ? {} : { recipients: [...entry.recipients] }),
    })),
    mediaFaults: media.settings(),
  });

  const update = (patch: FaultPatch): FaultSettings => {
    const valid = faultPatchSchema.parse(patch);
    if (valid.reset === true) {
      errorRate = latencyMs = hangRate = 0;
      outageUntil = undefined;
      forced = [];
      media.set([]);
    }
    errorRate = valid.errorRate ?? errorRate;
    latencyMs = valid.latencyMs ?? latencyMs;
    hangRate = valid.hangRate ?? hangRate;
    if (valid.outageUntil !== undefined) outageUntil = valid.outageUntil ?? undefined;
    if (valid.outageForMs !== undefined) outageUntil = deps.now() + valid.outageForMs;
    if (valid.forcedErrors !== undefined) {
      forced = valid.forcedErrors.map((entry) => ({
        code: entry.code,
        remaining: entry.times,
        recipients: entry.recipients === undefined ? undefined : new Set(entry.recipients.map(customerKey)),
      }));
    }
    if (valid.mediaFaults !== undefined) media.set(valid.mediaFaults);
    return settings();
  };

  update(initial);
  return {
    settings,
    update,
    inOutage: () => outageUntil !== undefined && deps.now() < outageUntil,
    media,
    rollHang: () => roll(hangRate),
    rollError: () => roll(errorRate),
    takeForced(address) {
      const key = customerKey(address);
      const entry = forced.find((candidate) => candidate.recipients?.has(key) ?? true);
      if (entry === undefined) return undefined;
      if (entry.remaining !== undefined) {
        entry.remaining -= 1;
        if (entry.remaining <= 0) forced = forced.filter((candidate) => candidate !== entry);
      }
      return entry.code;
    },
  };
}
