import type { AudienceMember, CampaignDefinition, CampaignStore } from "../../src/campaigns/index.js";
import { createFakeGraphApi, type FakeGraphApi } from "../../src/dev/index.js";
import { createLogger } from "../../src/observability/index.js";
import { GRAPH_TOKEN, PHONE_NUMBER_ID } from "./fake-graph.js";
import { APP_SECRET } from "./ingress-harness.js";

/** The single-tenant environment's tenant, which the gateway processes serve. */
export const CAMPAIGN_TENANT = "default";
export const CAMPAIGN_NUMBER = PHONE_NUMBER_ID;

/** `n` customers 2348030000001… with two template parameters each. */
export function killAudience(n: number): AudienceMember[] {
  return Array.from({ length: n }, (_, i) => ({
    customerId: `234803${String(i + 1).padStart(7, "0")}`,
    kind: "to" as const,
    params: [`Customer ${i + 1}`, "30%"],
  }));
}

/** Creates a campaign of `audience` on the tenant's number and starts it; answers its id. */
export async function launchCampaign(
  store: CampaignStore,
  audience: readonly AudienceMember[],
  over: Partial<CampaignDefinition> = {},
): Promise<string> {
  const { campaign } = await store.create(
    {
      tenantId: CAMPAIGN_TENANT,
      phoneNumberId: CAMPAIGN_NUMBER,
      name: "Kill -9 flash sale",
      clientKey: `kill-${Date.now()}`,
      template: {
        name: "flash_sale",
        language: "en",
        category: "marketing",
        bodyText: "Hi {{1}}, {{2}} off",
      },
      timezone: "Africa/Lagos",
      ...over,
    },
    audience,
    Date.now(),
  );
  const running = await store.transition(CAMPAIGN_TENANT, campaign.id, ["draft"], "running", Date.now());
  if (running === undefined) throw new Error("the campaign did not start");
  return campaign.id;
}

/** The fake Graph API of a kill test, with a trigger that fires on the nth template send it receives. */
export interface CampaignFake {
  readonly fake: FakeGraphApi;
  readonly url: string;
  /** Calls `fire` as the `nth` template send from now arrives (before the fake records it). */
  armOnSend(nth: number, fire: () => void): void;
  /** Template sends the fake accepted, by customer (digits only). */
  sendsByCustomer(): Map<string, number>;
}

/**
 * The fake Graph API answering after `latencyMs` (so a kill lands with sends in flight; a send
 * whose sender died is still accepted, as Meta would) and posting a `sent` and a `delivered`
 * status, with the send's callback data, to `webhookUrl` for every accepted message.
 */
export async function startCampaignFake(options: {
  webhookUrl: string;
  latencyMs: number;
}): Promise<CampaignFake> {
  const fake = createFakeGraphApi(
    { logger: createLogger({ level: "silent" }) },
    {
      tokens: [GRAPH_TOKEN],
      phoneNumberIds: [CAMPAIGN_NUMBER],
      faults: { latencyMs: options.latencyMs },
      autoStatuses: {
        webhookUrl: options.webhookUrl,
        appSecret: APP_SECRET,
        delayMs: 30,
        statuses: ["sent", "delivered"],
      },
    },
  );
  let trigger: { left: number; fire: () => void } | undefined;
  // Before the body is handled, so the trigger fires while the sender still waits for its answer.
  fake.app.addHook("preHandler", async (request) => {
    if (trigger === undefined || !request.url.endsWith("/messages")) return;
    const body = request.body;
    if (!Buffer.isBuffer(body) || !body.includes('"template"')) return;
    trigger.left--;
    if (trigger.left > 0) return;
    const { fire } = trigger;
    trigger = undefined;
    fire();
  });
  const url = await fake.listen();
  return {
    fake,
    url,
    armOnSend(nth, fire) {
      trigger = { left: nth, fire };
    },
    sendsByCustomer() {
      const counts = new Map<string, number>();
      for (const message of fake.messages()) {
        if (message.type !== "template") continue;
        const customer = String(message.to ?? message.recipient).replace(/\D/g, "");
        counts.set(customer, (counts.get(customer) ?? 0) + 1);
      }
      return counts;
    },
  };
}

/** A recipient's row as the kill tests read it. */
export interface RecipientRowState {
  readonly customerId: string;
  readonly state: string;
  /** Times recovery made it pending again after an unknown send. */
  readonly resends: number;
}

/** What a kill left behind (customers). */
export interface KillSnapshot {
  /** Claimed by the dead process and never settled (still `sending`). */
  readonly abandoned: readonly string[];
  /** Pending (not claimed, as far as the database knows) yet Meta has the message: a lost claim. */
  readonly lostClaims: readonly string[];
}

/** `rows`: the dead process's claims, or every recipient; `sends`: what the fake has by then. */
export function snapshotAtKill(
  rows: readonly RecipientRowState[],
  sends: ReadonlyMap<string, number>,
): KillSnapshot {
  return {
    abandoned: rows.filter((row) => row.state === "sending").map((row) => row.customerId),
    lostClaims: rows
      .filter((row) => row.state === "pending" && sends.has(row.customerId))
      .map((row) => row.customerId),
  };
}

/**
 * How the claims the kills left were settled, read at the end (each customer got one message, so
 * a claim never resent was settled by the status of the send the dead process made, and a resent
 * one had not reached Meta). A claim left at one kill may still be there at the next: counted once.
 */
export function settlementFigures(snapshots: readonly KillSnapshot[], rows: readonly RecipientRowState[]) {
  const abandoned = new Set(snapshots.flatMap((s) => s.abandoned));
  const resendsOf = new Map(rows.map((row) => [row.customerId, row.resends]));
  const resent = [...abandoned].filter((customer) => (resendsOf.get(customer) ?? 0) > 0).length;
  return {
    perKill: snapshots.map((s) => s.abandoned.length),
    abandoned: abandoned.size,
    reconciledByStatus: abandoned.size - resent,
    resentAfterGrace: resent,
    /** Recipients recovery sent again though no kill left their claim: must be none. */
    resentUnabandoned: rows.filter((row) => row.resends > 0 && !abandoned.has(row.customerId)).length,
    lostClaims: new Set(snapshots.flatMap((s) => s.lostClaims)).size,
  };
}

/** Customers sent the template twice or more, and customers of `audience` never sent it. */
export function onceEach(audience: readonly AudienceMember[], sends: ReadonlyMap<string, number>) {
  return {
    twice: [...sends.entries()].filter(([, count]) => count > 1).map(([customer]) => customer),
    missing: audience.filter((member) => !sends.has(member.customerId)).map((member) => member.customerId),
  };
}
