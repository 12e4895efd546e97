/** The router's intents (the contract: tenants enable a subset by these names). */
export const ROUTER_INTENTS = [
  "greeting",
  "thanks_goodbye",
  "check_balance",
  "failed_transaction",
  "transfer_money",
  "airtime_data",
  "bill_payment",
  "card_issue",
  "account_statement",
  "loan_inquiry",
  "order_status",
  "delivery_issue",
  "checkout_payment",
  "refund_request",
  "product_inquiry",
  "store_info",
  "talk_to_human",
  "out_of_scope",
] as const;

export type RouterIntent = (typeof ROUTER_INTENTS)[number];

/**
 * The classifier's extra class for messages that look routine but need the
 * agent (several requests, a complaint to investigate, "I no want balance…").
 * It is never an answer: when it wins, the router leaves the message alone.
 */
export const NEEDS_AGENT = "needs_agent";

const INTENT_SET: ReadonlySet<string> = new Set(ROUTER_INTENTS);

export function isRouterIntent(name: string): name is RouterIntent {
  return INTENT_SET.has(name);
}
