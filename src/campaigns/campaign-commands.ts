import { z } from "zod";
import { type AudienceFormat, parseAudience, placeholderCount } from "./audience.js";
import { campaignSettingsOf, clockTime } from "./campaign-settings.js";
import type { AudienceMember, Campaign, CampaignReport, CampaignState } from "./campaign-types.js";
import { CampaignInvalidError, CampaignNotFoundError, CampaignWrongStateError } from "./errors.js";
import type { CampaignStore, SuppressionList } from "./ports.js";
import { isKnownTimezone } from "./quiet-hours.js";

/** A tenant as campaigns see it. */
export interface CampaignTenant {
  readonly id: string;
  readonly phoneNumberIds: readonly string[];
  readonly throughputMps: number;
  readonly settings: Readonly<Record<string, unknown>>;
}

export interface CampaignCommandsDeps {
  readonly store: CampaignStore;
  /** The tenants' suppression lists, for imports. */
  readonly suppressions: SuppressionList;
  readonly tenants: readonly CampaignTenant[];
  readonly now: () => number;
}

/** What creating a campaign takes, besides its audience (API bodies and the CLI alike). */
export const createCampaignSchema = z.strictObject({
  tenantId: z.string().min(1),
  /** Default: the tenant's only number. */
  phoneNumberId: z
    .string()
    .regex(/^\d{5,20}$/, { error: "must be a numeric phone number id" })
    .optional(),
  name: z.string().trim().min(1).max(200),
  clientKey: z.string().trim().min(1).max(200),
  template: z.strictObject({
    name: z.string().trim().min(1).max(512),
    language: z.string().trim().min(2).max(15),
    category: z.enum(["marketing", "utility", "authentication"]).default("marketing"),
    bodyText: z.string().max(1024).optional(),
  }),
  /** ISO 8601 or ms since the epoch; absent: when it is started. */
  startAt: z.union([z.iso.datetime({ offset: true }), z.number().int().min(0)]).optional(),
  timezone: z
    .string()
    .refine(isKnownTimezone, { error: "must be an IANA time zone such as Africa/Lagos" })
    .optional(),
  quietHours: z.strictObject({ start: clockTime, end: clockTime }).optional(),
  sendRateMps: z.number().min(0.1).max(1000).optional(),
});

export type CreateCampaignInput = z.input<typeof createCampaignSchema>;

/** An audience as uploaded (CSV or JSON text) or already read. */
export type AudienceInput =
  | { readonly text: string; readonly format: AudienceFormat }
  | readonly AudienceMember[];

/** Where each action may start from, and where it leads. */
const ACTIONS = {
  start: { from: ["draft"], to: "running" },
  pause: { from: ["running", "scheduled"], to: "paused" },
  resume: { from: ["paused"], to: "running" },
  cancel: { from: ["draft", "scheduled", "running", "paused"], to: "cancelled" },
} as const satisfies Record<string, { from: readonly CampaignState[]; to: CampaignState }>;

export type CampaignAction = keyof typeof ACTIONS;

/**
 * What an operator can do with campaigns, for the CLI and the API alike: create one (checked
 * whole, idempotent by client key), start, pause, resume, cancel, and read its report. A campaign
 * with a start time in the future goes to `scheduled` when started or resumed, and runs then.
 */
export function createCampaignCommands(deps: CampaignCommandsDeps) {
  const tenantOf = (tenantId: string) => {
    const tenant = deps.tenants.find((candidate) => candidate.id === tenantId);
    if (tenant === undefined) throw new CampaignInvalidError([`there is no tenant "${tenantId}"`]);
    return tenant;
  };
  const existing = async (tenantId: string, campaignId: string): Promise<Campaign> => {
    const campaign = await deps.store.get(tenantId, campaignId);
    if (campaign === undefined) throw new CampaignNotFoundError(tenantId, campaignId);
    return campaign;
  };

  async function create(input: CreateCampaignInput, audience: AudienceInput) {
    const parsed = createCampaignSchema.safeParse(input);
    if (!parsed.success) {
      throw new CampaignInvalidError(
        parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`),
      );
    }
    const definition = parsed.data;
    const tenant = tenantOf(definition.tenantId);
    const settings = campaignSettingsOf(tenant);
    const phoneNumberId =
      definition.phoneNumberId ?? (tenant.phoneNumberIds.length === 1 ? tenant.phoneNumberIds[0] : undefined);
    const problems: string[] = [];
    if (phoneNumberId === undefined)
      problems.push(`phoneNumberId: tenant ${tenant.id} has several numbers; name one`);
    else if (!tenant.phoneNumberIds.includes(phoneNumberId)) {
      problems.push(`phoneNumberId: ${phoneNumberId} is not a number of tenant ${tenant.id}`);
    }
    if (problems.length > 0) throw new CampaignInvalidError(problems);
    const members = Array.isArray(audience)
      ? (audience as readonly AudienceMember[])
      : parseAudience(
          (audience as { text: string }).text,
          (audience as { format: AudienceFormat }).format,
          placeholderCount(definition.template.bodyText),
        );
    const startAt = definition.startAt === undefined ? undefined : new Date(definition.startAt).getTime();
    const quietHours = definition.quietHours ?? settings.quietHours;
    return deps.store.create(
      {
        tenantId: tenant.id,
        phoneNumberId: phoneNumberId as string,
        name: definition.name,
        clientKey: definition.clientKey,
        template: {
          name: definition.template.name,
          language: definition.template.language,
          category: definition.template.category,
          ...(definition.template.bodyText === undefined ? {} : { bodyText: definition.template.bodyText }),
        },
        timezone: definition.timezone ?? settings.timezone,
        ...(startAt === undefined ? {} : { startAt }),
        ...(quietHours === undefined ? {} : { quietHours }),
        ...(definition.sendRateMps === undefined ? {} : { sendRateMps: definition.sendRateMps }),
      },
      members,
      deps.now(),
    );
  }

  async function act(action: CampaignAction, tenantId: string, campaignId: string): Promise<Campaign> {
    const campaign = await existing(tenantId, campaignId);
    const rule = ACTIONS[action];
    const now = deps.now();
    const later = campaign.startAt !== undefined && campaign.startAt > now;
    const to: CampaignState = (action === "start" || action === "resume") && later ? "scheduled" : rule.to;
    const after = await deps.store.transition(
      tenantId,
      campaignId,
      rule.from,
      to,
      now,
      action === "pause" ? "operator" : undefined,
    );
    if (after === undefined)
      throw new CampaignWrongStateError(action, campaignId, (await existing(tenantId, campaignId)).state);
    return after;
  }

  async function report(tenantId: string, campaignId: string): Promise<CampaignReport> {
    const found = await deps.store.report(tenantId, campaignId, deps.now());
    if (found === undefined) throw new CampaignNotFoundError(tenantId, campaignId);
    return found;
  }

  /**
   * Puts customers on the tenant's suppression list (`opt_out`, source `import`) or takes them off
   * (`opt_in`); answers how many changed and how many the list holds after. Ids are checked whole first.
   */
  async function importSuppressions(
    tenantId: string,
    customers: readonly string[],
    action: "opt_out" | "opt_in",
  ) {
    tenantOf(tenantId);
    const ids = customers.map((raw) => raw.replace(/[\s+-]/g, ""));
    const bad = ids.flatMap((id, index) =>
      /^\d{7,15}$/.test(id) || /^[A-Za-z]{2}\.[A-Za-z0-9]{1,126}$/.test(id)
        ? []
        : [`customer ${index + 1}: "${customers[index]}" is neither a wa_id nor a user id`],
    );
    if (bad.length > 0) throw new CampaignInvalidError(bad);
    let changed = 0;
    for (const id of new Set(ids)) {
      if (action === "opt_in") {
        if (await deps.suppressions.optIn(tenantId, id)) changed++;
      } else if (!(await deps.suppressions.isSuppressed(tenantId, id))) {
        await deps.suppressions.optOut(tenantId, id, "import", deps.now());
        changed++;
      }
    }
    return { changed, total: await deps.suppressions.count(tenantId) };
  }

  return {
    create,
    act,
    report,
    importSuppressions,
    list: (tenantId?: string) => {
      if (tenantId !== undefined) tenantOf(tenantId);
      return deps.store.list(tenantId);
    },
  };
}

export type CampaignCommands = ReturnType<typeof createCampaignCommands>;
