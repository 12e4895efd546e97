/** One inbound text message as Meta writes it. */
export interface TextMessageSpec {
  readonly wamid: string;
  /** The customer's wa_id (digits, no "+"). */
  readonly from: string;
  /** Seconds since the epoch, as Meta sends it. */
  readonly timestamp: number;
  readonly text: string;
}

/** The business side of a webhook: the WABA and the number that received the messages. */
export interface WebhookBusiness {
  readonly wabaId: string;
  readonly phoneNumberId: string;
  readonly displayPhoneNumber: string;
}

/** The business of Meta's examples (and the fake Graph API's default). */
export const EXAMPLE_BUSINESS: WebhookBusiness = {
  wabaId: "114098765432109",
  phoneNumberId: "106540352242922",
  displayPhoneNumber: "2349012345678",
};

/** One inbound message: who sent it and the message object as Meta writes it (without `from`). */
interface InboundSpec {
  readonly from: string;
  readonly message: Record<string, unknown>;
}

function change(messages: readonly InboundSpec[], business: WebhookBusiness) {
  return {
    field: "messages",
    value: {
      messaging_product: "whatsapp",
      metadata: {
        display_phone_number: business.displayPhoneNumber,
        phone_number_id: business.phoneNumberId,
      },
      contacts: messages.map((m) => ({ profile: { name: `Customer ${m.from.slice(-4)}` }, wa_id: m.from })),
      messages: messages.map((m) => ({ from: m.from, ...m.message })),
    },
  };
}

function webhook(entries: readonly (readonly InboundSpec[])[], business: WebhookBusiness): Buffer {
  const body = {
    object: "whatsapp_business_account",
    entry: entries.map((messages, index) => ({
      id: `${business.wabaId}${index}`,
      changes: [change(messages, business)],
    })),
  };
  return Buffer.from(escapeNonAscii(JSON.stringify(body)));
}

/**
 * A webhook body with one entry per group of text messages, compact like
 * Meta's (non-ASCII kept as \uXXXX escapes), so a signature computed over it
 * matches what Meta would send. `business` defaults to EXAMPLE_BUSINESS.
 */
export function textWebhook(
  entries: readonly (readonly TextMessageSpec[])[],
  business: WebhookBusiness = EXAMPLE_BUSINESS,
): Buffer {
  return webhook(
    entries.map((messages) =>
      messages.map((m) => ({
        from: m.from,
        message: { id: m.wamid, timestamp: String(m.timestamp), type: "text", text: { body: m.text } },
      })),
    ),
    business,
  );
}

/** A webhook carrying one reply-button tap (an interactive `button_reply` with the button's id and title). */
export function buttonReplyWebhook(
  tap: {
    readonly wamid: string;
    readonly from: string;
    readonly timestamp: number;
    readonly id: string;
    readonly title: string;
  },
  business: WebhookBusiness = EXAMPLE_BUSINESS,
): Buffer {
  return webhook(
    [
      [
        {
          from: tap.from,
          message: {
            id: tap.wamid,
            timestamp: String(tap.timestamp),
            type: "interactive",
            interactive: { type: "button_reply", button_reply: { id: tap.id, title: tap.title } },
          },
        },
      ],
    ],
    business,
  );
}

/** One inbound message that is text or a medium: a voice note, a picture, a document. */
export type InboundSpecOf =
  | (TextMessageSpec & { readonly kind?: "text" })
  | {
      readonly kind: "audio" | "image" | "document" | "video" | "sticker";
      readonly wamid: string;
      readonly from: string;
      readonly timestamp: number;
      readonly mediaId: string;
      readonly mimeType: string;
      /** Base64, as Meta writes it. */
      readonly sha256: string;
      readonly caption?: string;
      readonly filename?: string;
    };

/**
 * A webhook whose messages may be media as Meta writes them (`audio` with
 * `voice: true`, `image` with its caption, `document` with its file name),
 * in one entry, in order.
 */
export function mixedWebhook(
  messages: readonly InboundSpecOf[],
  business: WebhookBusiness = EXAMPLE_BUSINESS,
): Buffer {
  return webhook(
    [
      messages.map((m) => {
        const base = { id: m.wamid, timestamp: String(m.timestamp) };
        if (!("mediaId" in m))
          return { from: m.from, message: { ...base, type: "text", text: { body: m.text } } };
        const own: Record<string, unknown> = { mime_type: m.mimeType, sha256: m.sha256, id: m.mediaId };
        if (m.kind === "audio") own.voice = true;
        if (m.caption !== undefined) own.caption = m.caption;
        if (m.filename !== undefined) own.filename = m.filename;
        return { from: m.from, message: { ...base, type: m.kind, [m.kind]: own } };
      }),
    ],
    business,
  );
}

/** Meta sends non-ASCII characters as lowercase \uXXXX escapes. */
export function escapeNonAscii(json: string): string {
  return json.replace(/[\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
