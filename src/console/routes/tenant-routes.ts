import { z } from "zod";
import { tenantOfConversation } from "../../whatsapp/index.js";
import { type ApiRoute, defineRoute } from "../api-route.js";
import { dashboard, metricsQuery, simulatorRequest, simulatorResult, templateList } from "../api-schemas.js";
import type { ConsoleDeps } from "../console-deps.js";
import { ConsoleError } from "../errors.js";
import { type OperatorAccess, tenantsAsked } from "../operator-access.js";

const tenantList = z.object({
  items: z.array(
    z.object({
      id: z.string(),
      role: z.enum(["admin", "agent"]),
      phoneNumberIds: z.array(z.string()),
      simulator: z.object({ available: z.boolean(), reason: z.string().optional() }),
    }),
  ),
});

/** The set-aside turns the console lists at most (newest first). */
const SET_ASIDE_SHOWN = 200;

const setAsideList = z.object({
  items: z.array(
    z.object({
      conversationKey: z.string(),
      turnId: z.string(),
      attempts: z.number().int(),
      reason: z.string(),
      setAsideAt: z.number().int(),
      messages: z.number().int(),
      firstText: z.string().optional(),
    }),
  ),
});

export function tenantRoutes(deps: ConsoleDeps): ApiRoute[] {
  const tenantOf = (access: OperatorAccess, id: string) => {
    const [tenantId] = tenantsAsked(access, id);
    const tenant = deps.tenants.find((candidate) => candidate.id === tenantId);
    if (tenant === undefined) throw new ConsoleError("notFound", `no tenant "${id}"`);
    return tenant;
  };

  /** The WABA of a tenant: its settings say, else its newest customer message's webhook did. */
  const wabaIdOf = async (tenantId: string, settings: Readonly<Record<string, unknown>>) => {
    if (typeof settings.wabaId === "string") return settings.wabaId;
    const newest = await deps.store.console.findConversations({ tenantIds: [tenantId] }, { limit: 1 });
    const key = newest.items[0]?.conversationKey;
    if (key === undefined) return undefined;
    const messages = await deps.store.messagesOf(key, { limit: 50 });
    for (const message of messages.items) {
      const wabaId = (message.content as { wabaId?: unknown } | undefined)?.wabaId;
      if (typeof wabaId === "string") return wabaId;
    }
    return undefined;
  };

  return [
    defineRoute({
      method: "GET",
      path: "/api/v1/tenants",
      summary: "The tenants I may see, with my role, their numbers and whether the simulator works for them",
      tag: "tenants",
      auth: "operator",
      response: tenantList,
      async handle({ access }) {
        const operator = access as OperatorAccess;
        const simulator = deps.simulator.availability();
        return {
          items: operator.tenantIds.map((tenantId) => {
            const tenant = deps.tenants.find((candidate) => candidate.id === tenantId);
            return {
              id: tenantId,
              role: operator.roleOn(tenantId) ?? "agent",
              phoneNumberIds: [...(tenant?.phoneNumberIds ?? [])],
              simulator,
            };
          }),
        };
      },
    }),
    defineRoute({
      method: "GET",
      path: "/api/v1/tenants/:tenant/templates",
      summary: "The tenant's approved message templates (from the Graph API's message_templates, cached)",
      tag: "tenants",
      auth: "operator",
      response: templateList,
      errors: [404],
      async handle({ access, params }) {
        const tenant = tenantOf(access as OperatorAccess, params.tenant as string);
        const list = await deps.templates.list(tenant, await wabaIdOf(tenant.id, tenant.settings));
        return { items: [...list.items], ...(list.reason === undefined ? {} : { reason: list.reason }) };
      },
    }),
    defineRoute({
      method: "POST",
      path: "/api/v1/simulator/messages",
      summary:
        "Send a message as a pretend customer: a signed webhook to this gateway's ingress, with optional Meta chaos",
      tag: "simulator",
      auth: "operator",
      body: simulatorRequest,
      response: simulatorResult,
      status: 202,
      errors: [404, 409],
      async handle({ access, body }) {
        tenantOf(access as OperatorAccess, body.tenant);
        return deps.simulator.send(body);
      },
    }),
    defineRoute({
      method: "GET",
      path: "/api/v1/turns/set-aside",
      summary:
        "Turns that failed too often and were set aside unanswered (TURN_MAX_ATTEMPTS), newest first, with why",
      tag: "dashboard",
      auth: "operator",
      query: z.object({ tenant: z.string().optional() }),
      response: setAsideList,
      errors: [404],
      async handle({ access, query }) {
        const tenantIds = new Set(tenantsAsked(access as OperatorAccess, query.tenant));
        const turns = (await deps.turnJournal?.setAsideTurns(SET_ASIDE_SHOWN)) ?? [];
        return {
          items: turns
            .filter((turn) => tenantIds.has(tenantOfConversation(turn.conversationKey)))
            .map((turn) => ({
              conversationKey: turn.conversationKey,
              turnId: turn.turnId,
              attempts: turn.attempts,
              reason: turn.reason,
              setAsideAt: turn.setAsideAt,
              messages: turn.messages.length,
              ...(turn.messages[0]?.text === undefined
                ? {}
                : { firstText: turn.messages[0].text.slice(0, 200) }),
            })),
        };
      },
    }),
    defineRoute({
      method: "GET",
      path: "/api/v1/metrics",
      summary:
        "The dashboard: hourly activity, local share and spend, latency, queues, Meta errors, handoffs, Meta silence",
      tag: "dashboard",
      auth: "operator",
      query: metricsQuery,
      response: dashboard,
      errors: [404],
      async handle({ access, query }) {
        const tenantIds = tenantsAsked(access as OperatorAccess, query.tenant);
        return deps.dashboard.figures(tenantIds, query.hours ?? 24);
      },
    }),
  ];
}
