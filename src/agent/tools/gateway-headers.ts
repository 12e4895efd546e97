/**
 * The headers the gateway itself puts on every tool call. They carry who the
 * call is for, so neither the model nor a tool's configuration may set them.
 */
export const GATEWAY_HEADERS = {
  tenant: "X-Sharpsharp-Tenant",
  customer: "X-Sharpsharp-Customer",
  /** Only on tools with `sideEffects`. */
  idempotencyKey: "Idempotency-Key",
} as const;

const RESERVED_PREFIX = "x-sharpsharp-";

/** Whether a header name belongs to the gateway: any `X-Sharpsharp-*`, and `Idempotency-Key` (any case). */
export function isReservedHeaderName(name: string): boolean {
  const lower = name.toLowerCase();
  return lower.startsWith(RESERVED_PREFIX) || lower === GATEWAY_HEADERS.idempotencyKey.toLowerCase();
}
