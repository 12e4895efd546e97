import { type ErrorCatalogEntry, SharpsharpError } from "../errors/index.js";

export const storeErrorCatalog = {
  schemaTooNew: {
    code: "SS_STORE_SCHEMA_TOO_NEW",
    meaning:
      "The database schema has migrations newer than this version of sharpsharp knows; it refuses to start rather than write to a schema it does not understand.",
  },
  unknownConversation: {
    code: "SS_STORE_UNKNOWN_CONVERSATION",
    meaning: "A conversation state was set for a conversation with no recorded message.",
  },
  invalidCursor: {
    code: "SS_STORE_INVALID_CURSOR",
    meaning: "A `before` cursor was not one the store handed out, or a page `limit` is not 1–500.",
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
  constructor() {
    super(
      storeErrorCatalog.unknownConversation.code,
      "no message of this conversation is recorded; record one before setting its state",
    );
  }
}

export class StoreInvalidPageError extends SharpsharpError {
  constructor(what: string) {
    super(storeErrorCatalog.invalidCursor.code, `invalid page request: ${what}`);
  }
}
