import { z } from "zod";

/**
 * Zod schemas for Meta's WhatsApp Cloud API webhook (docs/whatsapp-cloud-api.md §2–4).
 * Every object is loose: fields Meta adds later pass through untouched.
 */

/** Unix seconds, at most 10 digits (until the year 2286): the inbox score multiplies it by 10⁶. */
const unixSeconds = z.union([
  z.string().regex(/^\d{1,10}$/),
  z.number().int().nonnegative().max(9_999_999_999),
]);

export const webhookEnvelopeSchema = z.looseObject({
  object: z.literal("whatsapp_business_account"),
  entry: z.array(
    z.looseObject({
      id: z.string(),
      changes: z.array(z.looseObject({ field: z.string(), value: z.unknown() })),
    }),
  ),
});

export const contactSchema = z.looseObject({
  wa_id: z.string().optional(),
  user_id: z.string().optional(),
  parent_user_id: z.string().optional(),
  profile: z.looseObject({ name: z.string().optional(), username: z.string().optional() }).optional(),
});

/** `value` of a change whose `field` is "messages". */
export const messagesValueSchema = z.looseObject({
  messaging_product: z.string().optional(),
  metadata: z.looseObject({
    phone_number_id: z.string().min(1),
    display_phone_number: z.string().optional(),
  }),
  contacts: z.array(z.unknown()).optional(),
  messages: z.array(z.unknown()).optional(),
  statuses: z.array(z.unknown()).optional(),
  errors: z.array(z.unknown()).optional(),
});

export const messageBaseSchema = z.looseObject({
  id: z.string().min(1),
  timestamp: unixSeconds,
  type: z.string().min(1),
  from: z.string().optional(),
  from_user_id: z.string().optional(),
  from_parent_user_id: z.string().optional(),
  context: z.looseObject({}).optional(),
  referral: z.looseObject({}).optional(),
  errors: z.array(z.unknown()).optional(),
  group_id: z.string().min(1).optional(),
});

const media = z.looseObject({
  id: z.string(),
  caption: z.string().optional(),
  mime_type: z.string().optional(),
});

/**
 * A coordinate as a number, or as a numeric string (some senders quote them);
 * anything else, or a value out of `limit`, is not a place.
 */
const coordinate = (limit: number) =>
  z
    .union([
      z.number(),
      z
        .string()
        .trim()
        .regex(/^[-+]?\d{1,3}(\.\d+)?$/)
        .transform(Number),
    ])
    .pipe(z.number().min(-limit).max(limit));

/** An edit or a revoke names the message it changes. */
const originalMessage = { original_message_id: z.string().min(1) };

/** The type-named object each known message type carries; a mismatch makes the message `unsupported`. */
export const messageContentSchemas = {
  text: z.looseObject({ body: z.string() }),
  image: media,
  video: media,
  audio: media,
  document: media,
  sticker: media,
  location: z.looseObject({ latitude: coordinate(90), longitude: coordinate(180) }),
  contacts: z.array(z.looseObject({})),
  interactive: z.looseObject({
    type: z.string(),
    button_reply: z.looseObject({ id: z.string(), title: z.string() }).optional(),
    list_reply: z.looseObject({ id: z.string(), title: z.string() }).optional(),
    nfm_reply: z.looseObject({}).optional(),
  }),
  button: z.looseObject({ text: z.string(), payload: z.string().optional() }),
  reaction: z.looseObject({ message_id: z.string(), emoji: z.string().optional() }),
  order: z.looseObject({ product_items: z.array(z.unknown()) }),
  system: z.looseObject({ body: z.string().optional(), type: z.string().optional() }),
  // Numbers also used in the WhatsApp Business app: the customer changed or deleted an earlier message.
  edit: z.looseObject({
    ...originalMessage,
    message: z.looseObject({ type: z.string().min(1) }).optional(),
  }),
  revoke: z.looseObject(originalMessage),
  request_welcome: z.unknown(),
  unsupported: z.unknown(),
} as const;

/**
 * Older names of a modelled type: the on-premises API's `voice` is an audio
 * message (a voice note) with the same media object.
 */
export const LEGACY_TYPE_ALIASES: Readonly<Record<string, keyof typeof messageContentSchemas>> = {
  voice: "audio",
};

export const statusSchema = z.looseObject({
  id: z.string().min(1),
  status: z.string().min(1),
  timestamp: unixSeconds,
  recipient_id: z.string().optional(),
  recipient_user_id: z.string().optional(),
  recipient_parent_user_id: z.string().optional(),
  biz_opaque_callback_data: z.string().optional(),
  conversation: z.looseObject({}).optional(),
  pricing: z.looseObject({}).optional(),
  errors: z.array(z.unknown()).optional(),
});
