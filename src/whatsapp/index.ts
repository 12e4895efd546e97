export { WebhookShapeError, whatsappErrorCatalog } from "./errors.js";
export type {
  ChangeEvent,
  CustomerIdentity,
  DroppedReason,
  InboundEvent,
  InboundMessage,
  InboundMessageType,
  ParsedWebhook,
  StatusEvent,
} from "./inbound-types.js";
export { type ParseWebhookOptions, parseWebhook } from "./parse-webhook.js";
