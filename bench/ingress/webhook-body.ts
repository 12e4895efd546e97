/**
 * Synthetic WhatsApp Cloud API inbound webhooks for ingress benchmarks.
 *
 * The body is compact JSON shaped like what Meta POSTs for an inbound text message. Like Meta, every
 * non-ASCII character is written as a lowercase \uXXXX escape (emoji as a surrogate pair) and "/" as "\/",
 * so the bytes on the wire are pure ASCII. The text is padded with Nigerian Pidgin/English customer-support
 * chatter until the whole body is about 1.2 KB (between MIN_BODY_BYTES and MAX_BODY_BYTES).
 */
import { createHmac } from "node:crypto";

export const MIN_BODY_BYTES = 1150;
export const MAX_BODY_BYTES = 1250;
const TARGET_BODY_BYTES = 1200;

export const DEFAULT_WABA_ID = "114098765432109";
export const DEFAULT_DISPLAY_PHONE_NUMBER = "2349012345678";
export const DEFAULT_PHONE_NUMBER_ID = "106540352242922";

export interface TextWebhookInput {
  /** Message id, e.g. `wamid.bench.<run>.<i>`. */
  wamid: string;
  /** Customer wa_id (digits, no "+"), e.g. `2348001234567`. */
  from: string;
  /** Unix seconds, as Meta sends it (a string in the JSON). */
  timestamp: number | string;
  /** The business number's id; defaults to DEFAULT_PHONE_NUMBER_ID. */
  phoneNumberId?: string;
  /** Start of the message text; padded with chatter up to the target size. Defaults to a greeting. */
  text?: string;
  /** Profile name; defaults to one picked from `from`. */
  profileName?: string;
  /** Pad the text so the body is about this many bytes (default 1200). Set 0 to disable padding. */
  targetBytes?: number;
}

const NAMES = [
  "Chinedu Okafor",
  "Aisha Bello",
  "Tunde Adeyemi",
  "Ngozi Eze",
  "Emeka Nwosu",
  "Funmilayo Ajayi",
  "Ibrahim Musa",
  "Blessing Okon",
  "Seun Bakare",
  "Amaka Obi",
  "Yusuf Danjuma",
  "Kemi Oladipo",
];

const OPENERS = [
  "Good morning o",
  "Abeg una fit help me?",
  "Hello, good afternoon",
  "Oga abeg I need help",
  "Evening, customer care",
  "Hi there \u{1F44B}",
];

// Realistic support chatter; several carry ₦ and emoji so the escaping path is exercised.
const PHRASES = [
  "I don pay since yesterday but my order never show for my account.",
  "The money don comot from my account, \u20a625,500 exactly, abeg check am for me.",
  "Na the blue sneakers size 43 I order, order number na SH-20931.",
  "Dispatch rider talk say him go reach by 2pm but till now nothing \u{1F629}",
  "Abeg make una no vex, I just wan know wetin dey happen.",
  "I try call the hotline but e no dey connect at all.",
  "My delivery address na 14 Adeola Odeku Street, Victoria Island, Lagos.",
  "Please can you confirm if the transfer of \u20a612,000 entered?",
  "I go like change the size to 44 if e still dey possible.",
  "Make una refund me if una no fit deliver today \u{1F64F}",
  "I don wait since morning, this one no be am at all.",
  "Thank you for the quick response, I appreciate am well well \u{1F60A}",
  "Abeg send me the tracking link make I follow am.",
  "E be like say the payment page hang when I click pay/confirm.",
  "I get another order wey I wan add, na two packs of Indomie chicken.",
  "How much be the delivery fee go Ikeja? Last time na \u20a61,500.",
  "Wetin be the status of my complaint? Ticket na CS-7781.",
  "Please note I no go dey house after 6pm, make rider call before him come.",
];

const FILLER = " Abeg reply me sharp sharp.";

function hash32(s: string): number {
  // FNV-1a: cheap and stable, good enough to vary the text per message.
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Escape non-ASCII as lowercase \uXXXX (UTF-16 units, so emoji become surrogate pairs) and "/" as "\/". */
export function escapeLikeMeta(json: string): string {
  return json.replace(/[\u007f-\uffff/]/g, (c) =>
    c === "/" ? "\\/" : `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** `s` as the inside of a JSON string literal, escaped like Meta (no surrounding quotes). */
function jsonInner(s: string): string {
  return escapeLikeMeta(JSON.stringify(s)).slice(1, -1);
}

const PHRASES_ESCAPED = PHRASES.map((p) => jsonInner(` ${p}`));
const OPENERS_ESCAPED = OPENERS.map((o) => jsonInner(`${o}.`));
const NAMES_ESCAPED = NAMES.map(jsonInner);

/** A business-scoped user id shaped like Meta's `user_id` ("NG." + digits), derived from the number. */
export function userIdFor(waId: string): string {
  const a = hash32(waId).toString().padStart(10, "0");
  const b = hash32(`${waId}#`).toString().padStart(10, "0");
  return `NG.${a}${b}`;
}

/** The whole body; every argument is already JSON-escaped (inside of a string literal). */
function render(
  wamid: string,
  from: string,
  timestamp: string,
  phoneNumberId: string,
  name: string,
  userId: string,
  text: string,
): string {
  return (
    `{"object":"whatsapp_business_account","entry":[{"id":"${DEFAULT_WABA_ID}","changes":[{"value":{` +
    `"messaging_product":"whatsapp","metadata":{"display_phone_number":"${DEFAULT_DISPLAY_PHONE_NUMBER}",` +
    `"phone_number_id":"${phoneNumberId}"},"contacts":[{"profile":{"name":"${name}"},"wa_id":"${from}",` +
    `"user_id":"${userId}"}],"messages":[{"from":"${from}","from_user_id":"${userId}","id":"${wamid}",` +
    `"timestamp":"${timestamp}","type":"text","text":{"body":"${text}"}}]},"field":"messages"}]}]}`
  );
}

/** Build one inbound text webhook body (ASCII JSON bytes, ~1.2 KB). */
export function buildTextWebhook(input: TextWebhookInput): Buffer {
  const seed = hash32(input.wamid);
  const wamid = jsonInner(input.wamid);
  const from = jsonInner(input.from);
  const timestamp = jsonInner(String(input.timestamp));
  const phoneNumberId = jsonInner(input.phoneNumberId ?? DEFAULT_PHONE_NUMBER_ID);
  const name =
    input.profileName !== undefined
      ? jsonInner(input.profileName)
      : (NAMES_ESCAPED[hash32(input.from) % NAMES_ESCAPED.length] ?? "Customer");
  const userId = jsonInner(userIdFor(input.from));
  const target = input.targetBytes ?? TARGET_BODY_BYTES;
  let text =
    input.text !== undefined
      ? jsonInner(input.text)
      : (OPENERS_ESCAPED[seed % OPENERS_ESCAPED.length] ?? "Hello.");

  if (target > 0) {
    const envelope = render(wamid, from, timestamp, phoneNumberId, name, userId, "").length;
    const max = Math.max(target + (MAX_BODY_BYTES - TARGET_BODY_BYTES), envelope);
    const min = Math.min(target - (TARGET_BODY_BYTES - MIN_BODY_BYTES), max);
    let size = envelope + text.length;
    // Walk the phrase list from a per-message offset, adding whole phrases while they fit.
    for (let k = 0; k < PHRASES_ESCAPED.length && size < target; k++) {
      const phrase = PHRASES_ESCAPED[(seed + k * 7) % PHRASES_ESCAPED.length] ?? "";
      if (size + phrase.length > max) continue;
      text += phrase;
      size += phrase.length;
    }
    while (size < min) {
      const chunk = FILLER.slice(0, Math.min(FILLER.length, max - size));
      text += chunk;
      size += chunk.length;
    }
  }
  return Buffer.from(render(wamid, from, timestamp, phoneNumberId, name, userId, text), "latin1");
}

/** The `X-Hub-Signature-256` header value Meta sends: `sha256=<hex HMAC-SHA256 of the raw body>`. */
export function signBody(body: Buffer, appSecret: string): string {
  return `sha256=${createHmac("sha256", appSecret).update(body).digest("hex")}`;
}
