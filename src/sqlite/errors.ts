import { type ErrorCatalogEntry, SharpsharpError } from "../errors/index.js";

export const sqliteErrorCatalog = {
  unavailable: {
    code: "SS_SQLITE_UNAVAILABLE",
    meaning:
      "The embedded SQLite file cannot be opened or written (read-only disk or directory, disk full, another process owns it); embedded mode refuses to start, or the webhook answers 503.",
  },
} as const satisfies Record<string, ErrorCatalogEntry>;

/** The SQLite file cannot be opened or written; the message says what to change. */
export class SqliteUnavailableError extends SharpsharpError {
  constructor(message: string, cause?: unknown) {
    super(sqliteErrorCatalog.unavailable.code, message, cause === undefined ? {} : { cause });
  }
}
