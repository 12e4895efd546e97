import { fingerprint, type Logger, maskConversationKey } from "../../observability/index.js";

/** Where a best-effort write happened, for the warning (masked: no phone number, no raw wamid). */
export interface RecordScope {
  readonly conversationKey?: string;
  readonly wamid?: string;
  readonly turnId?: string;
}

/**
 * The error without its details: a database error's `detail` can quote the
 * failing row, message text and phone number included.
 */
function summaryOf(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const code = (error as { code?: unknown }).code;
  return { type: error.name, message: error.message, ...(code === undefined ? {} : { code }) };
}

/**
 * Runs a write the worker must not fail for (the reply is sent, the status
 * applied): a failure is a warning, never a rejection. Message text never
 * reaches the log, only the error and masked identifiers.
 */
export function createBestEffort(logger: Logger) {
  return async function bestEffort(what: string, scope: RecordScope, write: () => Promise<unknown>) {
    try {
      await write();
    } catch (error) {
      logger.warn(
        {
          err: summaryOf(error),
          ...(scope.conversationKey === undefined
            ? {}
            : { conversation: maskConversationKey(scope.conversationKey) }),
          ...(scope.wamid === undefined ? {} : { wamid: fingerprint(scope.wamid) }),
          ...(scope.turnId === undefined ? {} : { turnId: scope.turnId }),
        },
        `message store: could not record ${what}; the log misses it`,
      );
    }
  };
}

export type BestEffort = ReturnType<typeof createBestEffort>;
