/** Options shared by every sharpsharp error. */
export interface SharpsharpErrorOptions {
  /** HTTP status a request handler answers with when this error ends a request. */
  readonly httpStatus?: number;
  readonly cause?: unknown;
}

/**
 * Base of every error a caller is expected to handle. `code` is stable
 * (`SS_<AREA>_<WHAT>`) and documented in docs/errors.md; `message` is written
 * for the person who has to act on it and never holds a secret.
 */
export class SharpsharpError extends Error {
  readonly code: string;
  readonly httpStatus: number | undefined;

  constructor(code: string, message: string, options: SharpsharpErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.httpStatus = options.httpStatus;
  }
}

/** One entry of a capability's error catalog. */
export interface ErrorCatalogEntry {
  readonly code: string;
  readonly httpStatus?: number;
  readonly meaning: string;
}
