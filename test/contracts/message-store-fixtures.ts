import type { InboundRecord, MessageStore, OutboundRecord, Page } from "../../src/store/index.js";

/** Opens a fresh, empty, migrated store; `now` is its clock (the dashboard's "now"), default `Date.now`. */
export type OpenMessageStore = (options?: { readonly now?: () => number }) => Promise<MessageStore>;

export const T0 = Date.UTC(2026, 0, 10, 12, 0, 0);
export const PHONE = "106540352242922";

export const key = (tenant: string, customer: string, phone = PHONE) => `${tenant}:${phone}:${customer}`;

export const inbound = (over: Partial<InboundRecord> & { wamid: string }): InboundRecord => ({
  tenantId: "acme",
  conversationKey: key("acme", "2348012345678"),
  customerId: "2348012345678",
  type: "text",
  text: "hello",
  metaTimestamp: Math.floor(T0 / 1000),
  receivedAt: T0,
  ...over,
});

export const outbound = (over: Partial<OutboundRecord> & { turnId: string }): OutboundRecord => ({
  tenantId: "acme",
  conversationKey: key("acme", "2348012345678"),
  part: 0,
  type: "text",
  text: "welcome",
  body: { type: "text", text: { body: "welcome" } },
  queuedAt: T0 + 1_000,
  ...over,
});

/** A customer message opening (or adding to) conversation `customer` of `tenant`, at `at`. */
export const customerWrote = (
  tenant: string,
  customer: string,
  at: number,
  over: Partial<InboundRecord> = {},
) =>
  inbound({
    wamid: `wamid.${tenant}.${customer}.${at}`,
    tenantId: tenant,
    customerId: customer,
    conversationKey: key(tenant, customer),
    receivedAt: at,
    ...over,
  });

export function nextOf(page: Page<unknown>): string {
  if (page.next === undefined) throw new Error("expected another page");
  return page.next;
}
