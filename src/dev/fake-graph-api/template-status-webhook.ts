import { buildWabaChangeWebhook } from "./waba-change-webhook.js";

/** `event` of a message_template_status_update, as Meta lists them. */
export const TEMPLATE_STATUS_EVENTS = [
  "APPROVED",
  "REJECTED",
  "PENDING",
  "PAUSED",
  "DISABLED",
  "FLAGGED",
  "REINSTATED",
  "LOCKED",
  "IN_APPEAL",
  "ARCHIVED",
  "DELETED",
  "PENDING_DELETION",
  "LIMIT_EXCEEDED",
] as const;
export type TemplateStatusEvent = (typeof TEMPLATE_STATUS_EVENTS)[number];

export const TEMPLATE_WEBHOOK_CATEGORIES = ["MARKETING", "UTILITY", "AUTHENTICATION"] as const;
export type TemplateWebhookCategory = (typeof TEMPLATE_WEBHOOK_CATEGORIES)[number];

export interface TemplateStatusSpec {
  readonly wabaId: string;
  /** Unix seconds (the entry's `time`). */
  readonly timestamp: number;
  readonly event: TemplateStatusEvent;
  /** Meta writes the id as a JSON number; a digit string that fits one is written as a number. */
  readonly templateId: string | number;
  readonly templateName: string;
  /** Language and locale code, e.g. `en` or `en_US`. */
  readonly templateLanguage: string;
  /** e.g. NONE (approved, paused), INVALID_FORMAT, PROMOTIONAL, SCAM; null for a template scheduled for deletion. Default NONE. */
  readonly reason?: string | null;
  readonly category?: TemplateWebhookCategory;
  /** Unix seconds; written (as `disable_info`) for a disabled template. */
  readonly disableDate?: number;
  /** Pause and lock events: e.g. `{title: "FIRST_PAUSE", description: "…"}`. */
  readonly otherInfo?: { readonly title: string; readonly description: string };
  /** Rejections for INVALID_FORMAT. */
  readonly rejectionInfo?: { readonly reason: string; readonly recommendation: string };
}

function templateIdValue(id: string | number): string | number {
  if (typeof id === "number") return id;
  return /^\d+$/.test(id) && Number.isSafeInteger(Number(id)) ? Number(id) : id;
}

/** The exact bytes of a `message_template_status_update` webhook as Meta posts it, ready to be signed. */
export function buildTemplateStatusWebhook(spec: TemplateStatusSpec): string {
  return buildWabaChangeWebhook(spec.wabaId, spec.timestamp, "message_template_status_update", {
    event: spec.event,
    message_template_id: templateIdValue(spec.templateId),
    message_template_name: spec.templateName,
    message_template_language: spec.templateLanguage,
    reason: spec.reason === undefined ? "NONE" : spec.reason,
    ...(spec.category === undefined ? {} : { message_template_category: spec.category }),
    ...(spec.disableDate === undefined ? {} : { disable_info: { disable_date: spec.disableDate } }),
    ...(spec.otherInfo === undefined ? {} : { other_info: spec.otherInfo }),
    ...(spec.rejectionInfo === undefined ? {} : { rejection_info: spec.rejectionInfo }),
  });
}
