export { type AudienceFormat, parseAudience, placeholderCount } from "./audience.js";
export {
  type AudienceInput,
  type CampaignAction,
  type CampaignCommands,
  type CampaignCommandsDeps,
  type CampaignTenant,
  type CreateCampaignInput,
  createCampaignCommands,
  createCampaignSchema,
} from "./campaign-commands.js";
export {
  type CampaignEvents,
  type CampaignEventsDeps,
  createCampaignEvents,
} from "./campaign-events.js";
export {
  campaignCallbackData,
  campaignTemplateBody,
  parseCampaignCallbackData,
  renderedTemplateText,
} from "./campaign-message.js";
export { type CampaignMetrics, type CampaignSendOutcome, createCampaignMetrics } from "./campaign-metrics.js";
export { type CampaignResponderDeps, countCampaignCheckouts, withCampaigns } from "./campaign-responder.js";
export {
  type CampaignRunner,
  type CampaignRunnerDeps,
  type CampaignRunnerOptions,
  startCampaignRunner,
} from "./campaign-runner.js";
export {
  type CampaignSender,
  type CampaignSenderDeps,
  campaignPaceKey,
  createCampaignSender,
} from "./campaign-sender.js";
export { type CampaignSettings, campaignSettingsOf } from "./campaign-settings.js";
export type * from "./campaign-types.js";
export {
  CampaignInvalidError,
  CampaignNoDatabaseError,
  CampaignNotFoundError,
  CampaignWrongStateError,
  campaignErrorCatalog,
} from "./errors.js";
export { MESSAGING_LIMIT_TIERS, messagingLimitOfTier } from "./messaging-tiers.js";
export { createNumberStandingRefresh, type NumberStandingRefreshDeps } from "./number-standing-refresh.js";
export { detectOptChange, type OptChange } from "./opt-out-keywords.js";
export { optChangeLine } from "./opt-out-lines.js";
export type * from "./ports.js";
export { DEFAULT_CAMPAIGN_TIMEZONE, isKnownTimezone, isQuiet, quietTimezones } from "./quiet-hours.js";
