import { type ErrorCatalogEntry, SharpsharpError } from "../errors/index.js";

export const queueErrorCatalog = {
  unavailable: {
    code: "SS_QUEUE_UNAVAILABLE",
    httpStatus: 503,
    meaning:
      "The queue backend (Redis) did not durably record the work in time, or refused it; nothing was acknowledged.",
  },
} as const satisfies Record<string, ErrorCatalogEntry>;

/** The queue backend could not durably record work in time; the caller must not acknowledge it. */
export class QueueUnavailableError extends SharpsharpError {
  constructor(reason: string, cause?: unknown) {
    super(queueErrorCatalog.unavailable.code, `the queue backend is unavailable: ${reason}`, {
      httpStatus: queueErrorCatalog.unavailable.httpStatus,
      cause,
    });
  }
}
