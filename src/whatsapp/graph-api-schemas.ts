import { z } from "zod";

// Loose objects throughout: Meta adds fields without notice, and a send it
// accepted must never be reported as failed because of an extra field.

/** `POST /{phone-number-id}/messages` accepted a message. */
export const sendSuccessSchema = z.looseObject({
  contacts: z
    .array(
      z.looseObject({
        input: z.string().optional(),
        wa_id: z.string().optional(),
        user_id: z.string().optional(),
      }),
    )
    .optional(),
  messages: z.array(z.looseObject({ id: z.string().min(1), message_status: z.string().optional() })).min(1),
});

/** Mark-as-read and typing indicator. */
export const successFlagSchema = z.looseObject({ success: z.literal(true) });

/** `GET /{media-id}`: `file_size` is a quoted string on Meta's page and a number elsewhere. */
export const mediaInfoSchema = z.looseObject({
  url: z.url({ protocol: /^https?$/ }),
  mime_type: z.string().min(1),
  sha256: z.string(),
  file_size: z.union([z.number().int().nonnegative(), z.string().regex(/^\d+$/).transform(Number)]),
  id: z.string().optional(),
});

/** `POST /{phone-number-id}/media` stored the file. */
export const uploadSuccessSchema = z.looseObject({ id: z.string().min(1) });

/** Meta's error body; every field is optional and a wrong type drops just that field. */
export const graphErrorBodySchema = z.looseObject({
  error: z.looseObject({
    message: z.string().optional().catch(undefined),
    type: z.string().optional().catch(undefined),
    code: z.number().int().optional().catch(undefined),
    error_subcode: z.number().int().optional().catch(undefined),
    error_data: z
      .looseObject({ details: z.string().optional().catch(undefined) })
      .optional()
      .catch(undefined),
    fbtrace_id: z.string().optional().catch(undefined),
    is_transient: z.boolean().optional().catch(undefined),
  }),
});

/** One entry of Meta's `X-Business-Use-Case-Usage` header (per business id). */
export const businessUsageSchema = z.record(
  z.string(),
  z.array(z.looseObject({ estimated_time_to_regain_access: z.number().optional().catch(undefined) })),
);

/** `GET /{phone-number-id}?fields=whatsapp_business_manager_messaging_limit,quality_rating`. */
export const phoneNumberStandingSchema = z.looseObject({
  whatsapp_business_manager_messaging_limit: z.string().optional(),
  quality_rating: z.string().optional(),
});
