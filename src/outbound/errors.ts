import { type ErrorCatalogEntry, SharpsharpError } from "../errors/index.js";
import type { GiveUpReason } from "./send-error-codes.js";

export const outboundErrorCatalog = {
  invalidReply: {
    code: "SS_OUTBOUND_INVALID_REPLY",
    meaning:
      "A reply handed to the outbound queue names no customer (`to` or `recipient`), both, or has no message `type`; nothing of that call was queued.",
  },
  givenUp: {
    code: "SS_OUTBOUND_GIVEN_UP",
    meaning:
      "A reply was given up for good (the job's failedReason starts with this code and names the reason and Meta's error code).",
  },
  invalidReengagementTemplate: {
    code: "SS_OUTBOUND_INVALID_REENGAGEMENT_TEMPLATE",
    meaning:
      "A tenant's `reengagementTemplate` setting is not `{ name, language }` with non-empty strings; the worker does not start.",
  },
} as const satisfies Record<string, ErrorCatalogEntry>;

/** A reply the outbound queue refuses; the caller's bug, so nothing is queued. */
export class OutboundReplyInvalidError extends SharpsharpError {
  constructor(problem: string) {
    super(outboundErrorCatalog.invalidReply.code, `outbound reply refused: ${problem}`);
  }
}

/** A send given up for good: why, and Meta's error code when there was one. */
export class OutboundGivenUpError extends SharpsharpError {
  readonly reason: GiveUpReason;
  readonly graphCode: number | undefined;

  constructor(reason: GiveUpReason, graphCode: number | undefined, cause?: unknown) {
    const code = graphCode === undefined ? "no Meta code" : `Meta code ${graphCode}`;
    super(
      outboundErrorCatalog.givenUp.code,
      `${outboundErrorCatalog.givenUp.code}: ${reason} (${code})`,
      cause === undefined ? {} : { cause },
    );
    this.reason = reason;
    this.graphCode = graphCode;
  }
}

/** A tenant's `reengagementTemplate` setting cannot be used; names the tenant. */
export class ReengagementTemplateError extends SharpsharpError {
  constructor(tenantId: string, problem: string) {
    super(
      outboundErrorCatalog.invalidReengagementTemplate.code,
      `tenant "${tenantId}": invalid reengagementTemplate: ${problem}`,
    );
  }
}
