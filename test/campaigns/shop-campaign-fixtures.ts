/** The shop tenant the campaign integration tests run on, and the bodies they send. */
import { EXAMPLE_BUSINESS } from "../../src/dev/index.js";
import { GRAPH_TOKEN } from "../support/fake-graph.js";

export const SHOP = "shop";
export const SHOP_NUMBER = EXAMPLE_BUSINESS.phoneNumberId;
export const SHOP_SECRET = "shop-app-secret-0123456789";
export const ADMIN = { email: "ada@shop.example", password: "correct horse battery" } as const;

/** The shop tenant of a tenants file: one number, a high rate so campaigns finish in seconds. */
export function shopTenantEntry(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: SHOP,
    appSecretEnv: "SHOP_SECRET",
    verifyTokenEnv: "SHOP_VERIFY",
    graphTokenEnv: "GRAPH_TOKEN",
    phoneNumberIds: [SHOP_NUMBER],
    throughputMps: 1000,
    coalesce: { windowMs: 0, maxMs: 0 },
    campaigns: { replyReservePercent: 20 },
    ...extra,
  };
}

/** The variables the shop tenant's entry names. */
export const SHOP_ENV = { SHOP_SECRET, SHOP_VERIFY: "shop-verify", GRAPH_TOKEN } as const;

/** A webhook envelope of one change to the shop's number, as Meta writes it. */
export function messagesWebhook(value: Record<string, unknown>, field = "messages"): Record<string, unknown> {
  return {
    object: "whatsapp_business_account",
    entry: [
      {
        id: EXAMPLE_BUSINESS.wabaId,
        changes: [
          {
            field,
            value: {
              messaging_product: "whatsapp",
              metadata: {
                display_phone_number: EXAMPLE_BUSINESS.displayPhoneNumber,
                phone_number_id: SHOP_NUMBER,
              },
              ...value,
            },
          },
        ],
      },
    ],
  };
}

/** A CSV audience of customers 2348100000<from>… with a name and a discount each. */
export function audienceCsv(count: number, from = 1, prefix = "2348100"): string {
  const rows = Array.from({ length: count }, (_, i) => {
    const n = from + i;
    return `${prefix}${String(n).padStart(6, "0")},Customer ${n},20%`;
  });
  return ["wa_id,1,2", ...rows].join("\n");
}

export const SALE_TEMPLATE = {
  name: "december_sale",
  language: "en",
  category: "marketing",
  bodyText: "Hi {{1}}, {{2}} off everything today only!",
} as const;

/** A campaign body for the API: the sale template to this CSV audience. */
export function campaignBody(clientKey: string, csv: string, extra: Record<string, unknown> = {}) {
  return {
    name: `Sale ${clientKey}`,
    clientKey,
    template: SALE_TEMPLATE,
    audience: { format: "csv", text: csv },
    ...extra,
  };
}
