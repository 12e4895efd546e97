/**
 * What a TenantSendPause entry stops: a whole tenant (a rejected token, 190)
 * or one of its business numbers (a number Meta blocked for a while, 368).
 * Tenant ids hold no ":", so a number's scope never names a tenant.
 */
export function numberPauseScope(tenantId: string, phoneNumberId: string): string {
  return `${tenantId}:${phoneNumberId}`;
}
