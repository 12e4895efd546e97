/** The customer of a reply as the limits see it: digits of a wa_id, or the user id as is. */
export function customerOf(reply: { readonly to?: string; readonly recipient?: string }): string {
  return reply.to !== undefined ? reply.to.replace(/\D/g, "") : (reply.recipient ?? "");
}
