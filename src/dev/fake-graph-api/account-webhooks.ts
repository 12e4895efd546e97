import { FAKE_TEMPLATES } from "./fake-templates.js";
import {
  buildPhoneNumberQualityWebhook,
  type MessagingLimitTier,
  type PhoneNumberQualityEvent,
} from "./phone-number-quality-webhook.js";
import { postSignedWebhook, type WebhookPostResult, type WebhookTarget } from "./signed-webhook.js";
import type { BusinessIdentity } from "./status-poster.js";
import type { TemplateCategoryOf } from "./template-categories.js";
import {
  buildTemplateStatusWebhook,
  type TemplateStatusEvent,
  type TemplateStatusSpec,
  type TemplateWebhookCategory,
} from "./template-status-webhook.js";

export interface PostPhoneNumberQualityOptions extends WebhookTarget {
  readonly event: PhoneNumberQualityEvent;
  readonly currentLimit: MessagingLimitTier;
  readonly oldLimit?: MessagingLimitTier;
  readonly maxDailyConversationsPerBusiness?: MessagingLimitTier;
  /** Default: the fake's business display number. */
  readonly displayPhoneNumber?: string;
}

export interface PostTemplateStatusOptions extends WebhookTarget {
  readonly event: TemplateStatusEvent;
  readonly templateName: string;
  /** Default: the catalog's (FAKE_TEMPLATES) for a template it has; required for any other. */
  readonly templateId?: string | number;
  /** Default: the catalog's, else `en`. */
  readonly templateLanguage?: string;
  /** Default: the fake's category for the name (catalog, templateCategories, else MARKETING). */
  readonly category?: TemplateWebhookCategory;
  readonly reason?: string | null;
  readonly disableDate?: number;
  readonly otherInfo?: TemplateStatusSpec["otherInfo"];
  readonly rejectionInfo?: TemplateStatusSpec["rejectionInfo"];
}

/** Thrown when a template status names a template the fake cannot give an id to. */
export class UnknownTemplateError extends Error {}

export interface AccountWebhooks {
  postPhoneNumberQuality(options: PostPhoneNumberQualityOptions): Promise<WebhookPostResult>;
  postTemplateStatus(options: PostTemplateStatusOptions): Promise<WebhookPostResult>;
}

export interface AccountWebhooksDeps {
  readonly business: BusinessIdentity;
  readonly now: () => number;
  readonly fetch: typeof fetch;
  readonly templateCategoryOf: TemplateCategoryOf;
  /** Aborted when the fake closes: posts in flight give up. */
  readonly closing: AbortSignal;
}

/** Posts signed account-level webhooks (number quality and limit, template status) as Meta would. */
export function createAccountWebhooks(deps: AccountWebhooksDeps): AccountWebhooks {
  const seconds = () => Math.floor(deps.now() / 1000);
  return {
    postPhoneNumberQuality(options) {
      const body = buildPhoneNumberQualityWebhook({
        wabaId: deps.business.wabaId,
        timestamp: seconds(),
        displayPhoneNumber: options.displayPhoneNumber ?? deps.business.displayPhoneNumber,
        event: options.event,
        currentLimit: options.currentLimit,
        ...(options.oldLimit === undefined ? {} : { oldLimit: options.oldLimit }),
        ...(options.maxDailyConversationsPerBusiness === undefined
          ? {}
          : { maxDailyConversationsPerBusiness: options.maxDailyConversationsPerBusiness }),
      });
      return postSignedWebhook(deps.fetch, options, body, deps.closing);
    },
    async postTemplateStatus(options) {
      const known = FAKE_TEMPLATES.find((template) => template.name === options.templateName);
      const templateId = options.templateId ?? known?.id;
      if (templateId === undefined) {
        throw new UnknownTemplateError(
          `templateId is required for "${options.templateName}", a template not in the fake's catalog`,
        );
      }
      const body = buildTemplateStatusWebhook({
        wabaId: deps.business.wabaId,
        timestamp: seconds(),
        event: options.event,
        templateId,
        templateName: options.templateName,
        templateLanguage: options.templateLanguage ?? known?.language ?? "en",
        category:
          options.category ??
          (deps.templateCategoryOf(options.templateName).toUpperCase() as TemplateWebhookCategory),
        ...(options.reason === undefined ? {} : { reason: options.reason }),
        ...(options.disableDate === undefined ? {} : { disableDate: options.disableDate }),
        ...(options.otherInfo === undefined ? {} : { otherInfo: options.otherInfo }),
        ...(options.rejectionInfo === undefined ? {} : { rejectionInfo: options.rejectionInfo }),
      });
      return postSignedWebhook(deps.fetch, options, body, deps.closing);
    },
  };
}
