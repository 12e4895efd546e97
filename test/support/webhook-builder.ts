export interface TextMessageSpec {
  readonly wamid: string;
  readonly from: string;
  readonly timestamp: number;
  readonly text: string;
}

const BUSINESS = { wabaId: "114098765432109", phoneNumberId: "106540352242922", display: "2349012345678" };

/** One inbound message: who sent it and the message object as Meta writes it (without `from`). */
interface InboundSpec {
  readonly from: string;
  readonly message: Record<string, unknown>;
}

function change(messages: readonly InboundSpec[], phoneNumberId = BUSINESS.phoneNumberId) {
  return {
    field: "messages",
    value: {
      messaging_product: "whatsapp",
      metadata: { display_phone_number: BUSINESS.display, phone_number_id: phoneNumberId },
      contacts: messages.map((m) => ({ profile: { name: `Customer ${m.from.slice(-4)}` }, wa_id: m.from })),
      messages: messages.map((m) => ({ from: m.from, ...m.message })),
    },
  };
}

function webhook(entries: readonly (readonly InboundSpec[])[]): Buffer {
  const body = {
    object: "whatsapp_business_account",
    entry: entries.map((messages, index) => ({
      id: `${BUSINESS.wabaId}${index}`,
      changes: [change(messages)],
    })),
  };
  return Buffer.from(escapeNonAscii(JSON.stringify(body)));
}

/** A webhook body with one entry per group of messages, compact like Meta's (non-ASCII kept as \uXXXX escapes). */
export function textWebhook(entries: readonly (readonly TextMessageSpec[])[]): Buffer {
  return webhook(
    entries.map((messages) =>
      messages.map((m) => ({
        from: m.from,
        message: { id: m.wamid, timestamp: String(m.timestamp), type: "text", text: { body: m.text } },
      })),
    ),
  );
}

/** A webhook carrying one reply-button tap (an interactive `button_reply` with the button's id and title). */
export function buttonReplyWebhook(tap: {
  readonly wamid: string;
  readonly from: string;
  readonly timestamp: number;
  readonly id: string;
  readonly title: string;
}): Buffer {
  return webhook([
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
  ]);
}

/** Meta sends non-ASCII characters as lowercase \uXXXX escapes. */
export function escapeNonAscii(json: string): string {
  return json.replace(/[\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
