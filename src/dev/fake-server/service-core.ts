import type { FastifyInstance } from "fastify";
import { createSeededRandom } from "../../random/index.js";
import { createHeldRequests, type HeldRequests } from "./held-requests.js";
import { createFaults, type Faults, type LatencySetting, type ServiceFaultPatch } from "./service-faults.js";

/** The options every fake OpenAI-compatible service takes. */
export interface ServiceOptions {
  /** When set, calls need `Authorization: Bearer <apiKey>` (else 401); unset: any key, or none. */
  readonly apiKey?: string;
  readonly latencyMs?: LatencySetting;
  /** A `latencyMs` here wins over the option above. */
  readonly faults?: ServiceFaultPatch;
  /** Seed of the default random source; default 1. */
  readonly seed?: number;
}

/** The key, clock, faults, held requests and closing signal of a fake OpenAI-compatible service. */
export interface ServiceCore {
  readonly apiKey: string | undefined;
  readonly now: () => number;
  readonly faults: Faults;
  readonly held: HeldRequests;
  /** Aborted by close(), so held and delayed requests stop waiting. */
  readonly closing: AbortSignal;
  /** Back to the starting faults and, unless a random source was given, the starting seed. */
  resetFaults(): void;
  /** Ends held and delayed requests first; otherwise Fastify's close would wait for them. */
  close(app: FastifyInstance): Promise<void>;
}

export function createServiceCore(
  deps: { readonly now?: () => number; readonly random?: () => number },
  options: ServiceOptions,
): ServiceCore {
  const { random } = deps;
  const seed = options.seed ?? 1;
  let roll = random ?? createSeededRandom(seed);
  const initialFaults: ServiceFaultPatch = {
    ...(options.latencyMs === undefined ? {} : { latencyMs: options.latencyMs }),
    ...options.faults,
  };
  const held = createHeldRequests();
  const faults = createFaults(initialFaults, { random: () => roll(), held });
  const closing = new AbortController();
  return {
    apiKey: options.apiKey,
    now: deps.now ?? Date.now,
    faults,
    held,
    closing: closing.signal,
    resetFaults() {
      if (random === undefined) roll = createSeededRandom(seed);
      faults.update({ reset: true, ...initialFaults });
    },
    async close(app) {
      closing.abort();
      await app.close();
    },
  };
}
