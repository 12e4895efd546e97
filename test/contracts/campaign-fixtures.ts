import type {
  AudienceMember,
  Campaign,
  CampaignDefinition,
  CampaignStore,
  ClaimRequest,
  NumberStandings,
  SuppressionList,
} from "../../src/campaigns/index.js";

/** The three campaign ports of one adapter, on one database. */
export interface CampaignStores {
  readonly store: CampaignStore;
  readonly suppressions: SuppressionList;
  readonly standings: NumberStandings;
}

/** Opens the ports on a fresh, empty, migrated database (or schema) for each test. */
export type OpenCampaignStores = () => Promise<CampaignStores>;

export const T0 = Date.UTC(2026, 2, 2, 9, 0, 0);
export const MINUTE = 60_000;
export const DAY = 86_400_000;
export const NUMBER = "106540352242922";

export const definition = (over: Partial<CampaignDefinition> = {}): CampaignDefinition => ({
  tenantId: "acme",
  phoneNumberId: NUMBER,
  name: "Spring sale",
  clientKey: "spring-2026",
  template: { name: "spring_sale", language: "en", category: "marketing", bodyText: "Hi {{1}}, {{2}} off" },
  timezone: "Africa/Lagos",
  ...over,
});

/** `n` customers 2348000000001… (from `from`), each with its name and a discount as parameters. */
export const audience = (n: number, from = 1): AudienceMember[] =>
  Array.from({ length: n }, (_, i) => ({
    customerId: customer(from + i),
    kind: "to" as const,
    params: [`Customer ${from + i}`, "20%"],
  }));

export const customer = (i: number) => `234800${String(i).padStart(7, "0")}`;

/** Creates a campaign and starts it (draft → running). */
export async function runningCampaign(
  store: CampaignStore,
  members: readonly AudienceMember[],
  over: Partial<CampaignDefinition> = {},
  now = T0,
): Promise<Campaign> {
  const { campaign } = await store.create(definition(over), members, now);
  const running = await store.transition(campaign.tenantId, campaign.id, ["draft"], "running", now);
  if (running === undefined) throw new Error("the campaign did not start");
  return running;
}

export const claimOf = (campaignId: string, over: Partial<ClaimRequest> = {}): ClaimRequest => ({
  campaignId,
  owner: "worker-1",
  limit: 10,
  now: T0,
  leaseMs: MINUTE,
  quietTimezones: [],
  windowMs: DAY,
  ...over,
});
