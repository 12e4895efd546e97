import { escapeNonAscii } from "./status-webhook.js";

/**
 * The bytes of a WhatsApp Business Account webhook with one change of a
 * field other than `messages` (quality, template status …), in the order and
 * compact form Meta posts them, ready to be signed. `timestamp` is Unix seconds.
 */
export function buildWabaChangeWebhook(
  wabaId: string,
  timestamp: number,
  field: string,
  value: Record<string, unknown>,
): string {
  const envelope = {
    entry: [{ id: wabaId, time: timestamp, changes: [{ value, field }] }],
    object: "whatsapp_business_account",
  };
  return escapeNonAscii(JSON.stringify(envelope));
}
