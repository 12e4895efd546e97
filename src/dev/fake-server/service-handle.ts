import type { FastifyInstance } from "fastify";
import { listenForUrl } from "./fake-server-app.js";
import type { ServiceContext } from "./service-context.js";
import type { ServiceCore } from "./service-core.js";
import type { ServiceFaultPatch, ServiceFaultSettings } from "./service-faults.js";

/** The part of a fake service's handle that is the same for every such fake. */
export interface ServiceHandle<RequestRecord> {
  readonly app: FastifyInstance;
  /** Listens (default 127.0.0.1, port 0) and returns the base URL, without `/v1`. */
  listen(options?: { readonly host?: string; readonly port?: number }): Promise<string>;
  /** Every call, oldest first, with what it was answered. */
  requests(): RequestRecord[];
  faults(): ServiceFaultSettings;
  /** Changes faults; throws a ZodError for an invalid patch, changing nothing. */
  setFaults(patch: ServiceFaultPatch): ServiceFaultSettings;
  /** Back to the starting state, faults and seed; records forgotten; held requests let go. */
  reset(): void;
  /** Stops listening; held and delayed requests are dropped or answered 503, no socket left open. */
  close(): Promise<void>;
}

export function serviceHandle<RequestRecord>(
  app: FastifyInstance,
  core: ServiceCore,
  ctx: ServiceContext<{ list(): RequestRecord[]; clear(): void }>,
): ServiceHandle<RequestRecord> {
  return {
    app,
    listen: (options) => listenForUrl(app, options),
    requests: () => ctx.records.list(),
    faults: () => core.faults.settings(),
    setFaults: (patch) => core.faults.update(patch),
    reset: () => ctx.reset(),
    close: () => core.close(app),
  };
}
