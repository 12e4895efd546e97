/**
 * The conversation key, `{tenant}:{phoneNumberId}:{customerId}`: one customer
 * of one business number of one tenant. Built and read only here, so queues,
 * stores and logs agree on its shape. The customer id is a wa_id or, for a
 * customer with a username and no number, their business-scoped user id.
 */
export function conversationKeyOf(tenantId: string, phoneNumberId: string, customerId: string): string {
  return `${tenantId}:${phoneNumberId}:${customerId}`;
}

/** The tenant: the key up to its first ":" (the whole key when it has none). */
export function tenantOfConversation(conversationKey: string): string {
  const cut = conversationKey.indexOf(":");
  return cut < 0 ? conversationKey : conversationKey.slice(0, cut);
}

/**
 * The business number: the key between its first and last ":" (empty when it
 * has fewer than two). The message store's migrations backfill it the same way in SQL.
 */
export function phoneNumberIdOfConversation(conversationKey: string): string {
  const first = conversationKey.indexOf(":");
  const last = conversationKey.lastIndexOf(":");
  return first < last ? conversationKey.slice(first + 1, last) : "";
}

/**
 * The key cut before its customer id: `scope` ends with the ":" before it
 * (empty when the key has none, so the whole key counts as the customer id).
 */
export function splitCustomerOfConversation(conversationKey: string): {
  readonly scope: string;
  readonly customerId: string;
} {
  const cut = conversationKey.lastIndexOf(":");
  return { scope: conversationKey.slice(0, cut + 1), customerId: conversationKey.slice(cut + 1) };
}
