import { buildWabaChangeWebhook } from "./waba-change-webhook.js";

/** `event` of a phone_number_quality_update: quality flags, limit changes, throughput. */
export const PHONE_NUMBER_QUALITY_EVENTS = [
  "FLAGGED",
  "UNFLAGGED",
  "DOWNGRADE",
  "UPGRADE",
  "ONBOARDING",
  "THROUGHPUT_UPGRADE",
] as const;
export type PhoneNumberQualityEvent = (typeof PHONE_NUMBER_QUALITY_EVENTS)[number];

/** Messaging limits as Meta names them (TIER_1K is the old ladder's first step, TIER_2K the current one's). */
export const MESSAGING_LIMIT_TIERS = [
  "TIER_50",
  "TIER_250",
  "TIER_1K",
  "TIER_2K",
  "TIER_10K",
  "TIER_100K",
  "TIER_UNLIMITED",
  "TIER_NOT_SET",
] as const;
export type MessagingLimitTier = (typeof MESSAGING_LIMIT_TIERS)[number];

export interface PhoneNumberQualitySpec {
  readonly wabaId: string;
  /** Unix seconds (the entry's `time`). */
  readonly timestamp: number;
  readonly displayPhoneNumber: string;
  readonly event: PhoneNumberQualityEvent;
  readonly currentLimit: MessagingLimitTier;
  /** Meta writes it only for messaging-limit changes. */
  readonly oldLimit?: MessagingLimitTier;
  /**
   * The portfolio's limit. Meta announced it as the replacement of
   * current_limit and old_limit, so readers should take either.
   */
  readonly maxDailyConversationsPerBusiness?: MessagingLimitTier;
}

/** The exact bytes of a `phone_number_quality_update` webhook as Meta posts it, ready to be signed. */
export function buildPhoneNumberQualityWebhook(spec: PhoneNumberQualitySpec): string {
  return buildWabaChangeWebhook(spec.wabaId, spec.timestamp, "phone_number_quality_update", {
    display_phone_number: spec.displayPhoneNumber,
    event: spec.event,
    ...(spec.oldLimit === undefined ? {} : { old_limit: spec.oldLimit }),
    current_limit: spec.currentLimit,
    ...(spec.maxDailyConversationsPerBusiness === undefined
      ? {}
      : { max_daily_conversations_per_business: spec.maxDailyConversationsPerBusiness }),
  });
}
