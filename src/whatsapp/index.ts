export {
  type AnswerabilityScope,
  isAnswerable,
  splitByAnswerability,
  UNANSWERABLE_REASONS,
  type UnanswerableReason,
} from "./answerability.js";
export {
  conversationKeyOf,
  phoneNumberIdOfConversation,
  splitCustomerOfConversation,
  tenantOfConversation,
} from "./conversation-key.js";
export { WebhookShapeError, whatsappErrorCatalog } from "./errors.js";
export {
  createGraphApiClient,
  type GraphApiClient,
  type GraphApiClientDeps,
  type GraphApiClientOptions,
  type MediaInfo,
  type MediaUpload,
  type OutboundMessageBody,
  type PhoneNumberStanding,
  type SendContact,
  type SendResult,
} from "./graph-api-client.js";
export {
  GraphApiError,
  type GraphApiErrorInit,
  graphApiErrorCatalog,
  MediaHostNotAllowedError,
  ResponseTooLargeError,
  TransportError,
  type TransportFailure,
  UnexpectedResponseError,
} from "./graph-api-errors.js";
export {
  createHttpTransport,
  type HttpRequest,
  type HttpResponse,
  type HttpTransport,
  type HttpTransportOptions,
} from "./http-transport.js";
export type {
  ChangeEvent,
  CustomerIdentity,
  DroppedReason,
  InboundEvent,
  InboundMessage,
  InboundMessageType,
  MediaKind,
  MediaReading,
  ParsedWebhook,
  RecordOnlyMessageEvent,
  StatusEvent,
} from "./inbound-types.js";
export { checkMediaHostSuffixes, DEFAULT_MEDIA_HOST_SUFFIXES, hostMatchesSuffix } from "./media-hosts.js";
export { FUTURE_TOLERANCE_SECONDS } from "./normalize-message.js";
export { type ParseWebhookOptions, parseWebhook } from "./parse-webhook.js";
