export interface TextMessageSpec {
  readonly wamid: string;
  readonly from: string;
  readonly timestamp: number;
  readonly text: string;
}

const BUSINESS = { wabaId: "114098765432109", phoneNumberId: "106540352242922", display: "2349012345678" };

function change(messages: readonly TextMessageSpec[], phoneNumberId = BUSINESS.phoneNumberId) {
  return {
    field: "messages",
    value: {
      messaging_product: "whatsapp",
      metadata: { display_phone_number: BUSINESS.display, phone_number_id: phoneNumberId },
      contacts: messages.map((m) => ({ profile: { name: `Customer ${m.from.slice(-4)}` }, wa_id: m.from })),
      messages: messages.map((m) => ({
        from: m.from,
        id: m.wamid,
        timestamp: String(m.timestamp),
        type: "text",
        text: { body: m.text },
      })),
    },
  };
}

/** A webhook body with one entry per group of messages, compact like Meta's (non-ASCII kept as \uXXXX escapes). */
export function textWebhook(entries: readonly (readonly TextMessageSpec[])[]): Buffer {
  const body = {
    object: "whatsapp_business_account",
    entry: entries.map((messages, index) => ({
      id: `${BUSINESS.wabaId}${index}`,
      changes: [change(messages)],
    })),
  };
  return Buffer.from(escapeNonAscii(JSON.stringify(body)));
}

/** Meta sends non-ASCII characters as lowercase \uXXXX escapes. */
export function escapeNonAscii(json: string): string {
  return json.replace(/[\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
