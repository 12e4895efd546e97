export type {
  PostPhoneNumberQualityOptions,
  PostTemplateStatusOptions,
} from "./fake-graph-api/account-webhooks.js";
export {
  FAKE_GRAPH_USAGE,
  type FakeGraphCliOptions,
  type FakeGraphCliParse,
  parseFakeGraphArgs,
} from "./fake-graph-api/cli-options.js";
export {
  createFakeGraphApi,
  type FakeGraphApi,
  type FakeGraphApiDeps,
  type FakeGraphApiOptions,
} from "./fake-graph-api/create-fake-graph-api.js";
export { FAKE_TEMPLATES } from "./fake-graph-api/fake-templates.js";
export type { FaultPatch, FaultSettings, ForcedError } from "./fake-graph-api/faults.js";
export { FORCEABLE_ERROR_CODES, type ForceableErrorCode } from "./fake-graph-api/graph-error.js";
export type { FakeGraphIds } from "./fake-graph-api/ids.js";
export type { MarketingCapSnapshot } from "./fake-graph-api/marketing-cap.js";
export type { FakeMedia } from "./fake-graph-api/media-store.js";
export {
  DEFAULT_MESSAGING_LIMIT_WINDOW_MS,
  type MessagingLimitNumberCount,
  type MessagingLimitOptions,
  type MessagingLimitSnapshot,
} from "./fake-graph-api/messaging-limit.js";
export {
  buildPhoneNumberQualityWebhook,
  MESSAGING_LIMIT_TIERS,
  type MessagingLimitTier,
  PHONE_NUMBER_QUALITY_EVENTS,
  type PhoneNumberQualityEvent,
  type PhoneNumberQualitySpec,
} from "./fake-graph-api/phone-number-quality-webhook.js";
export type { FakeMessageRecord, FakeRequestRecord, MessageFilter } from "./fake-graph-api/records.js";
export {
  DEFAULT_PAIR_BURST,
  DEFAULT_PAIR_REFILL_MS,
  DEFAULT_THROUGHPUT_MPS,
  type SendLimitOptions,
} from "./fake-graph-api/send-limits.js";
export type { WebhookPostResult, WebhookTarget } from "./fake-graph-api/signed-webhook.js";
export type {
  AutoStatusOptions,
  PostStatusOptions,
  PostStatusResult,
} from "./fake-graph-api/status-poster.js";
export {
  buildStatusWebhook,
  type FakeStatus,
  type StatusError,
  type StatusWebhookSpec,
} from "./fake-graph-api/status-webhook.js";
export type { TemplateCategory } from "./fake-graph-api/template-categories.js";
export {
  MARKETING_CAP_ERROR_CODE,
  MESSAGING_LIMIT_ERROR_CODE,
} from "./fake-graph-api/template-send-checks.js";
export {
  buildTemplateStatusWebhook,
  TEMPLATE_STATUS_EVENTS,
  TEMPLATE_WEBHOOK_CATEGORIES,
  type TemplateStatusEvent,
  type TemplateStatusSpec,
  type TemplateWebhookCategory,
} from "./fake-graph-api/template-status-webhook.js";
export { type SendValidation, validateSend } from "./fake-graph-api/validate-send.js";
export {
  FAKE_LLM_USAGE,
  type FakeLlmCliDeps,
  type FakeLlmCliOptions,
  type FakeLlmCliParse,
  parseFakeLlmArgs,
} from "./fake-llm/cli-options.js";
export {
  createFakeLlm,
  type FakeLlm,
  type FakeLlmDeps,
  type FakeLlmFaultPatch,
  type FakeLlmFaultSettings,
  type FakeLlmOptions,
} from "./fake-llm/create-fake-llm.js";
export type { FakeLlmIds } from "./fake-llm/ids.js";
export type { FakeLlmImageRecord, FakeLlmOutcome, FakeLlmRequestRecord } from "./fake-llm/records.js";
export { type FakeLlmRule, FakeLlmRulesError } from "./fake-llm/rules.js";
export {
  createSeededRandom,
  FAULT_STATUSES,
  type FaultStatus,
  type LatencySetting,
  type ServiceFaultPatch,
  type ServiceFaultSettings,
} from "./fake-server/index.js";
export {
  FAKE_STT_USAGE,
  type FakeSttCliDeps,
  type FakeSttCliOptions,
  type FakeSttCliParse,
  parseFakeSttArgs,
} from "./fake-stt/cli-options.js";
export {
  createFakeStt,
  type FakeStt,
  type FakeSttDeps,
  type FakeSttOptions,
} from "./fake-stt/create-fake-stt.js";
export type { FakeSpeechFormat } from "./fake-stt/fake-stt-context.js";
export type { FakeSttOutcome, FakeSttRequestRecord } from "./fake-stt/records.js";
export type { FakeTranscript, FakeTranscriptRules, TranscriptMatch } from "./fake-stt/transcripts.js";
export { heavyPdf } from "./heavy-pdf.js";
export {
  buttonReplyWebhook,
  EXAMPLE_BUSINESS,
  escapeNonAscii,
  type InboundSpecOf,
  mixedWebhook,
  type TextMessageSpec,
  textWebhook,
  type WebhookBusiness,
} from "./webhook-builder.js";
