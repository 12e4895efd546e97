import { z } from "zod";
import {
  type CampaignAction,
  type CampaignCommands,
  CampaignNoDatabaseError,
  createCampaignSchema,
} from "../../campaigns/index.js";
import { type ApiRoute, defineRoute } from "../api-route.js";
import type { ConsoleDeps } from "../console-deps.js";
import { ConsoleError } from "../errors.js";
import { type OperatorAccess, tenantsAsked } from "../operator-access.js";

/** An audience of 100,000 rows of CSV is about 4 MB; a bit more for long parameters. */
const AUDIENCE_BODY_LIMIT = 32 * 1024 * 1024;

const campaign = z.object({
  id: z.string(),
  tenantId: z.string(),
  phoneNumberId: z.string(),
  name: z.string(),
  clientKey: z.string(),
  state: z.enum(["draft", "scheduled", "running", "paused", "completed", "cancelled"]),
  stateReason: z.string().optional(),
  template: z.object({
    name: z.string(),
    language: z.string(),
    category: z.string(),
    bodyText: z.string().optional(),
  }),
  startAt: z.number().int().optional(),
  timezone: z.string(),
  quietHours: z.object({ start: z.string(), end: z.string() }).optional(),
  sendRateMps: z.number().optional(),
  audienceSize: z.number().int(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});

const counts = z.record(z.string(), z.number().int());

const report = z.object({
  campaign,
  targeted: z.number().int(),
  pending: z.number().int(),
  heldForLimit: z.number().int(),
  sending: z.number().int(),
  unknown: z.number().int(),
  skipped: counts,
  sent: z.number().int(),
  delivered: z.number().int(),
  read: z.number().int(),
  failed: counts,
  replied: z.number().int(),
  optedOut: z.number().int(),
  handoffs: z.number().int(),
  checkouts: z.number().int(),
  billable: counts,
  timeline: z.array(z.tuple([z.number().int(), z.number().int()])),
});

const member = z.strictObject({
  wa_id: z.string().optional(),
  user_id: z.string().optional(),
  params: z.array(z.string()).default([]),
  timezone: z.string().optional(),
});

const createBody = createCampaignSchema.omit({ tenantId: true }).extend({
  /** CSV text with a header row, or JSON rows; see docs/campaigns.md for the columns. */
  audience: z.union([
    z.strictObject({ format: z.enum(["csv", "json"]), text: z.string().min(1) }),
    z.array(member).min(1),
  ]),
});

const actionParam = z.enum(["start", "pause", "resume", "cancel"]);

/** The campaigns API; absent when this process has no campaign store (Redis mode without DATABASE_URL). */
export function campaignRoutes(deps: ConsoleDeps): ApiRoute[] {
  const commandsOf = (): CampaignCommands => {
    if (deps.campaigns === undefined) throw new CampaignNoDatabaseError();
    return deps.campaigns;
  };
  const tenantFor = (access: OperatorAccess, tenant: string, write: boolean) => {
    const [tenantId] = tenantsAsked(access, tenant) as [string];
    if (write && access.roleOn(tenantId) !== "admin") {
      throw new ConsoleError("forbidden", `campaigns of "${tenantId}" need the admin role there`);
    }
    return tenantId;
  };

  return [
    defineRoute({
      method: "GET",
      path: "/api/v1/tenants/:tenant/campaigns",
      summary: "The tenant's campaigns, newest first",
      tag: "campaigns",
      auth: "operator",
      response: z.object({ items: z.array(campaign) }),
      async handle({ access, params }) {
        const tenantId = tenantFor(access as OperatorAccess, params.tenant as string, false);
        return { items: await commandsOf().list(tenantId) };
      },
    }),
    defineRoute({
      method: "POST",
      path: "/api/v1/tenants/:tenant/campaigns",
      summary:
        "Create a campaign in draft with its audience (idempotent by clientKey: the same key answers the campaign already made, 200 instead of 201)",
      tag: "campaigns",
      auth: "operator",
      body: createBody,
      response: z.object({ campaign, created: z.boolean() }),
      status: 201,
      bodyLimit: AUDIENCE_BODY_LIMIT,
      errors: [404, 409],
      async handle({ access, params, body, reply }) {
        const tenantId = tenantFor(access as OperatorAccess, params.tenant as string, true);
        const { audience, ...definition } = body;
        // Rows sent as JSON go through the same checks as an uploaded file.
        const upload = Array.isArray(audience)
          ? { format: "json" as const, text: JSON.stringify(audience) }
          : audience;
        const result = await commandsOf().create({ ...definition, tenantId }, upload);
        if (!result.created) reply.code(200);
        return result;
      },
    }),
    defineRoute({
      method: "GET",
      path: "/api/v1/tenants/:tenant/campaigns/:id",
      summary:
        "A campaign's report: targeted, skipped, sent, delivered, read, failed by code, replies, opt-outs, cost and a timeline",
      tag: "campaigns",
      auth: "operator",
      response: report,
      errors: [404],
      async handle({ access, params }) {
        const tenantId = tenantFor(access as OperatorAccess, params.tenant as string, false);
        const found = await commandsOf().report(tenantId, params.id as string);
        return {
          ...found,
          timeline: found.timeline.map(([minute, sent]) => [minute, sent] as [number, number]),
        };
      },
    }),
    defineRoute({
      method: "POST",
      path: "/api/v1/tenants/:tenant/campaigns/:id/:action",
      summary:
        "Start, pause, resume or cancel a campaign (start and resume schedule it when its start time is ahead)",
      tag: "campaigns",
      auth: "operator",
      response: campaign,
      errors: [404, 409],
      async handle({ access, params }) {
        const tenantId = tenantFor(access as OperatorAccess, params.tenant as string, true);
        const action = actionParam.safeParse(params.action);
        if (!action.success) throw new ConsoleError("notFound", `no campaign action "${params.action}"`);
        return commandsOf().act(action.data as CampaignAction, tenantId, params.id as string);
      },
    }),
    defineRoute({
      method: "POST",
      path: "/api/v1/tenants/:tenant/suppressions",
      summary:
        "Import customers onto the tenant's suppression list (opt_out) or take them off it (opt_in); every campaign skips those on it",
      tag: "campaigns",
      auth: "operator",
      body: z.strictObject({
        action: z.enum(["opt_out", "opt_in"]).default("opt_out"),
        customers: z.array(z.string().min(1).max(128)).min(1).max(100_000),
      }),
      response: z.object({ changed: z.number().int(), total: z.number().int() }),
      bodyLimit: AUDIENCE_BODY_LIMIT,
      async handle({ access, params, body }) {
        const tenantId = tenantFor(access as OperatorAccess, params.tenant as string, true);
        return commandsOf().importSuppressions(tenantId, body.customers, body.action);
      },
    }),
  ];
}
