import { type ErrorCatalogEntry, SharpsharpError } from "../errors/index.js";

export const campaignErrorCatalog = {
  invalid: {
    code: "SS_CAMPAIGN_INVALID",
    httpStatus: 400,
    meaning:
      "A campaign or its audience was refused: the message lists every problem (a missing template, a bad time zone or quiet hours, an audience row without a customer, the wrong number of parameters…); nothing was created.",
  },
  notFound: {
    code: "SS_CAMPAIGN_NOT_FOUND",
    httpStatus: 404,
    meaning: "No campaign of that tenant has this id.",
  },
  wrongState: {
    code: "SS_CAMPAIGN_WRONG_STATE",
    httpStatus: 409,
    meaning:
      "The action does not apply to the campaign's state (resuming a running campaign, starting a cancelled one…); the message names both.",
  },
  noDatabase: {
    code: "SS_CAMPAIGN_NO_DATABASE",
    httpStatus: 503,
    meaning:
      "Campaigns need one database every process shares: in Redis mode set DATABASE_URL (PostgreSQL). Embedded mode keeps them in its SQLite file.",
  },
} as const satisfies Record<string, ErrorCatalogEntry>;

/** A campaign definition or audience that cannot be used; `problems` lists each, in words a user can act on. */
export class CampaignInvalidError extends SharpsharpError {
  constructor(readonly problems: readonly string[]) {
    const shown = problems.slice(0, 20);
    const more = problems.length > shown.length ? ` (and ${problems.length - shown.length} more)` : "";
    super(campaignErrorCatalog.invalid.code, `campaign refused: ${shown.join("; ")}${more}`, {
      httpStatus: campaignErrorCatalog.invalid.httpStatus,
    });
  }
}

export class CampaignNotFoundError extends SharpsharpError {
  constructor(tenantId: string, campaignId: string) {
    super(campaignErrorCatalog.notFound.code, `tenant ${tenantId} has no campaign ${campaignId}`, {
      httpStatus: campaignErrorCatalog.notFound.httpStatus,
    });
  }
}

export class CampaignWrongStateError extends SharpsharpError {
  constructor(action: string, campaignId: string, state: string) {
    super(campaignErrorCatalog.wrongState.code, `cannot ${action} campaign ${campaignId}: it is ${state}`, {
      httpStatus: campaignErrorCatalog.wrongState.httpStatus,
    });
  }
}

export class CampaignNoDatabaseError extends SharpsharpError {
  constructor() {
    super(
      campaignErrorCatalog.noDatabase.code,
      "campaigns need DATABASE_URL (PostgreSQL) in Redis mode: every worker must share the audience",
      { httpStatus: campaignErrorCatalog.noDatabase.httpStatus },
    );
  }
}
