import type { TemplateCategory } from "./template-categories.js";

/** The statuses the fake can report for a message it accepted. */
export type FakeStatus = "sent" | "delivered" | "read" | "failed";

/** One `errors[]` item of a `failed` status, as Meta writes it. */
export interface StatusError {
  readonly code: number;
  readonly title: string;
  readonly message?: string;
  readonly error_data?: { readonly details: string };
  readonly href?: string;
}

export interface StatusWebhookSpec {
  readonly wamid: string;
  readonly status: FakeStatus;
  /** Unix seconds. */
  readonly timestamp: number;
  readonly wabaId: string;
  readonly phoneNumberId: string;
  readonly displayPhoneNumber: string;
  /** The customer's phone number as digits (absent for a customer known only by BSUID). */
  readonly recipientId?: string;
  readonly recipientUserId?: string;
  /** `template` sends are billed (`regular`, in their category); everything else is a free service reply. */
  readonly messageType?: string;
  /** The category a template is billed in; default utility. */
  readonly templateCategory?: TemplateCategory;
  /**
   * Whether the status carries `pricing`. Meta writes it on `sent` and on one
   * of delivered or read (the default here: sent and delivered); never on failed.
   */
  readonly priced?: boolean;
  readonly errors?: readonly StatusError[];
  readonly bizOpaqueCallbackData?: string;
}

const ERRORS_HREF = "/documentation/business-messaging/whatsapp/support/error-codes";

/** What Meta reports for a `failed` status when the caller names no error. */
export const DEFAULT_FAILED_ERRORS: readonly StatusError[] = [
  {
    code: 131000,
    title: "Something went wrong",
    message: "Something went wrong",
    error_data: { details: "Something went wrong" },
    href: ERRORS_HREF,
  },
];

/** Meta writes non-ASCII characters as lowercase \uXXXX escapes. */
export function escapeNonAscii(json: string): string {
  return json.replace(/[\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function pricing(spec: StatusWebhookSpec) {
  return spec.messageType === "template"
    ? { billable: true, pricing_model: "PMP", type: "regular", category: spec.templateCategory ?? "utility" }
    : { billable: false, pricing_model: "PMP", type: "free_customer_service", category: "service" };
}

/**
 * The exact bytes of a status webhook the way Meta posts it (v24.0+ shape:
 * `pricing` on sent and delivered unless told otherwise, `errors` on failed; compact JSON with
 * \uXXXX escapes), ready to be signed.
 */
export function buildStatusWebhook(spec: StatusWebhookSpec): string {
  const status: Record<string, unknown> = {
    id: spec.wamid,
    status: spec.status,
    timestamp: String(spec.timestamp),
  };
  if (spec.recipientId !== undefined) status.recipient_id = spec.recipientId;
  if (spec.recipientUserId !== undefined) status.recipient_user_id = spec.recipientUserId;
  if (spec.bizOpaqueCallbackData !== undefined) status.biz_opaque_callback_data = spec.bizOpaqueCallbackData;
  const priced = spec.priced ?? (spec.status === "sent" || spec.status === "delivered");
  if (priced && spec.status !== "failed") status.pricing = pricing(spec);
  if (spec.status === "failed") status.errors = spec.errors ?? DEFAULT_FAILED_ERRORS;
  const envelope = {
    object: "whatsapp_business_account",
    entry: [
      {
        id: spec.wabaId,
        changes: [
          {
            value: {
              messaging_product: "whatsapp",
              metadata: {
                display_phone_number: spec.displayPhoneNumber,
                phone_number_id: spec.phoneNumberId,
              },
              statuses: [status],
            },
            field: "messages",
          },
        ],
      },
    ],
  };
  return escapeNonAscii(JSON.stringify(envelope));
}
