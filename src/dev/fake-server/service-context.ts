import type { HeldRequests } from "./held-requests.js";
import type { ServiceCore } from "./service-core.js";
import type { Faults } from "./service-faults.js";

/** What the routes of every fake OpenAI-compatible service share. */
export interface ServiceContext<R extends ServiceRecords> {
  /** When set, calls need `Authorization: Bearer <apiKey>`. */
  readonly apiKey: string | undefined;
  readonly faults: Faults;
  readonly held: HeldRequests;
  readonly records: R;
  readonly now: () => number;
  /** Aborted when the fake closes, so held and delayed requests stop waiting. */
  readonly closing: AbortSignal;
  /** Back to the starting state and faults, records forgotten, held requests let go. */
  reset(): void;
}

export interface ServiceRecords {
  list(): unknown[];
  clear(): void;
}

/** A service's context; `resetOwn` puts back what only that service has (rules, transcripts). */
export function serviceContext<R extends ServiceRecords>(
  core: ServiceCore,
  records: R,
  resetOwn: () => void,
): ServiceContext<R> {
  return {
    apiKey: core.apiKey,
    faults: core.faults,
    held: core.held,
    records,
    now: core.now,
    closing: core.closing,
    reset() {
      records.clear();
      resetOwn();
      core.resetFaults();
    },
  };
}
