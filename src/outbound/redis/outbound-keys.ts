/**
 * Redis keys of the outbound side (prefix = REDIS_PREFIX). BullMQ keeps the
 * `outbound` queue under `{p}:outbound:…` itself; these sit beside it.
 *
 *   {p}:outbound:rate:number:{phoneNumberId}            str, PX  GCRA theoretical arrival time, ms
 *   {p}:outbound:rate:pair:{phoneNumberId}:{customer}   str, PX  the same, per recipient (pair limit)
 *   {p}:outbound:paused:{tenant}                        str, PX  present while the tenant's sends are paused
 *   {p}:outbound:order:{tenant}:{conversation}          hash, EX send order of a conversation (send-order-script.ts)
 */
export function createOutboundKeys(prefix: string) {
  return {
    numberRate: (phoneNumberId: string) => `${prefix}:outbound:rate:number:${phoneNumberId}`,
    pairRate: (phoneNumberId: string, customer: string) =>
      `${prefix}:outbound:rate:pair:${phoneNumberId}:${customer}`,
    paused: (tenantId: string) => `${prefix}:outbound:paused:${tenantId}`,
    order: (tenantId: string, conversationKey: string) =>
      `${prefix}:outbound:order:${tenantId}:${conversationKey}`,
  };
}
