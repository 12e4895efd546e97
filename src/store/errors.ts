import { type ErrorCatalogEntry, SharpsharpError } from "../errors/index.js";

export const storeErrorCatalog = {
  schemaTooNew: {
    code: "SS_STORE_SCHEMA_TOO_NEW",
    meaning:
      "The database schema has migrations newer than this version of sharpsharp knows; it refuses to start rather than write to a schema it does not understand.",
  },
  unknownConversation: {
    code: "SS_STORE_UNKNOWN_CONVERSATION",
    meaning:
      "A conversation state was set, or a note added, for a conversation with no recorded message (of that tenant).",
  },
  invalidCursor: {
    code: "SS_STORE_INVALID_CURSOR",
    meaning: "A `before` cursor was not one the store handed out, or a page `limit` is not 1–500.",
  },
  invalidQuery: {
    code: "SS_STORE_INVALID_QUERY",
    meaning:
      "A console query named no tenant, asked for the `mine` view without an operator, or for activity buckets that are not a whole number of ms or too many.",
  },
} as const satisfies Record<string, ErrorCatalogEntry>;

/** The database was migrated by a newer sharpsharp; running older code against it could corrupt data. */
export class StoreSchemaTooNewError extends SharpsharpError {
  /** `remedy` names the way out for the backend at hand (which setting points elsewhere). */
  constructor(
    schema: string,
    databaseVersion: number,
    knownVersion: number,
    remedy = "upgrade sharpsharp or point DATABASE_URL at another database",
  ) {
    super(
      storeErrorCatalog.schemaTooNew.code,
      `the message store schema "${schema}" is at migration ${databaseVersion}, newer than the ${knownVersion} this version knows; ${remedy}`,
    );
  }
}

export class StoreUnknownConversationError extends SharpsharpError {
  constructor(action = "setting its state") {
    super(
      storeErrorCatalog.unknownConversation.code,
      `no message of this conversation is recorded; record one before ${action}`,
    );
  }
}

export class StoreInvalidPageError extends SharpsharpError {
  constructor(what: string) {
    super(storeErrorCatalog.invalidCursor.code, `invalid page request: ${what}`);
  }
}

/** A console query the store refuses before reading anything: a caller's mistake, never the data's. */
export class StoreInvalidQueryError extends SharpsharpError {
  constructor(what: string) {
    super(storeErrorCatalog.invalidQuery.code, `invalid console query: ${what}`);
  }
}
