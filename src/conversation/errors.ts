import { type ErrorCatalogEntry, SharpsharpError } from "../errors/index.js";

export const conversationErrorCatalog = {
  invalidSettings: {
    code: "SS_CONVERSATION_INVALID_SETTINGS",
    meaning:
      "A tenant's `router`, `replies`, `fallback` or `stale` settings are malformed (for example a rule whose `match` is not a valid regular expression, a reply with more than 3 buttons, or a custom intent in `router.custom` with fewer than 10 or more than 30 examples, a router intent's name or a repeated example); the worker does not start.",
  },
  unknownTenant: {
    code: "SS_CONVERSATION_UNKNOWN_TENANT",
    meaning:
      "A turn job names a tenant this worker's configuration does not have (workers and ingress configured differently); the job fails and is retried, its messages wait.",
  },
  journalUnavailable: {
    code: "SS_CONVERSATION_JOURNAL_UNAVAILABLE",
    meaning:
      "A turn's step could not be written to the turn journal (Redis or the SQLite file failed); the turn fails and runs again, replaying what was recorded, instead of going on unrecorded.",
  },
} as const satisfies Record<string, ErrorCatalogEntry>;

/** A tenant's responder settings cannot be used; says which tenant and field. */
export class ResponderSettingsError extends SharpsharpError {
  constructor(tenantId: string, problems: readonly string[]) {
    super(
      conversationErrorCatalog.invalidSettings.code,
      `tenant "${tenantId}": invalid responder settings: ${problems.join("; ")}`,
    );
  }
}

/** A turn for a tenant the worker does not know. */
export class UnknownTenantError extends SharpsharpError {
  constructor(tenantId: string) {
    super(
      conversationErrorCatalog.unknownTenant.code,
      `turn for unknown tenant "${tenantId}": configure the worker with the same tenants as the ingress`,
    );
  }
}

/**
 * A step's result could not be journaled. Whoever catches errors inside a
 * turn (the agent turn turns LLM failures into a fallback reply) must let
 * this one through: the turn has to fail and run again.
 */
export class TurnJournalError extends SharpsharpError {
  constructor(step: string, cause: unknown) {
    super(
      conversationErrorCatalog.journalUnavailable.code,
      `could not journal the turn's step "${step}": ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
  }
}
