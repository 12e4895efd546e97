import type { FastifyInstance } from "fastify";
import { createSeededRandom } from "../../random/index.js";
import { listenForUrl } from "./fake-server-app.js";
import { createHeldRequests, type HeldRequests } from "./held-requests.js";
import {
  createFaults,
  type Faults,
  type LatencySetting,
  type ServiceFaultPatch,
  type ServiceFaultSettings,
} from "./service-faults.js";

/** The options of a fake OpenAI-compatible service that shape its faults. */
export interface ServiceFaultOptions {
  readonly latencyMs?: LatencySetting;
  /** A `latencyMs` here wins over the option above. */
  readonly faults?: ServiceFaultPatch;
  /** Seed of the default random source; default 1. */
  readonly seed?: number;
}

/** The faults, held requests and closing signal of a fake OpenAI-compatible service. */
export interface ServiceCore {
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
  options: ServiceFaultOptions,
  random: (() => number) | undefined,
): ServiceCore {
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

/** The part of a fake service's handle that is the same for every such fake. */
export interface ServiceHandle {
  readonly app: FastifyInstance;
  /** Listens (default 127.0.0.1, port 0) and returns the base URL, without `/v1`. */
  listen(options?: { readonly host?: string; readonly port?: number }): Promise<string>;
  faults(): ServiceFaultSettings;
  /** Changes faults; throws a ZodError for an invalid patch, changing nothing. */
  setFaults(patch: ServiceFaultPatch): ServiceFaultSettings;
  /** Stops listening; held and delayed requests are dropped or answered 503, no socket left open. */
  close(): Promise<void>;
}

export function serviceHandle(app: FastifyInstance, core: ServiceCore): ServiceHandle {
  return {
    app,
    listen: (options) => listenForUrl(app, options),
    faults: () => core.faults.settings(),
    setFaults: (patch) => core.faults.update(patch),
    close: () => core.close(app),
  };
}
