/** Values the router lifts out of a message, for the reply template and the agent. */
export interface RouterSlots {
  /** In naira: "₦15k", "N15,000", "15k naira" and "15 thousand" are all 15000. */
  amount?: number;
  /** A 10-digit (NUBAN) account number. */
  account?: string;
  /** A transaction reference or session id, as written (upper case). */
  reference?: string;
  /** An order id, as written (upper case, without "#"). */
  orderId?: string;
  /** A Nigerian mobile number in E.164 form (+234…). */
  phone?: string;
  /**
   * When the customer says it happened: this_morning, today, yesterday, last_night, last_week, this_month,
   * last_month, last_year, days_ago, weeks_ago, months_ago, since_<weekday>, month_<name> (month_may…);
   * or, from a transfer receipt's picture, its date as printed (2025-03-14; see receipt-slots.ts).
   */
  date?: string;
  /** The Nigerian bank or wallet named, canonical ("GTBank", "Access Bank", "OPay"…; see bank-slot.ts). */
  bank?: string;
}

/** A slot's placeholder token in the normalised text, so "₦5k" and "₦15,000" read the same to the model. */
export const SLOT_TOKENS = {
  amount: "_amount_",
  account: "_account_",
  reference: "_ref_",
  orderId: "_order_",
  phone: "_phone_",
} as const;

const REFERENCE =
  /\b(?:ref(?:erence)?(?:\s*(?:no|number|id))?|session\s*id|trx|txn|transaction\s*(?:id|ref|no|number))\s*[:#.-]?\s*([a-z0-9][a-z0-9-]{5,})\b|\b((?:trx|txn|ft|ref)[a-z0-9]*\d{6,}[a-z0-9]*)\b|(?<!\d|\d[,.])(\d{12,})(?!\d|[,.]\d)/gu;
const ORDER =
  /\b(?:order|oda|odar)\s*(?:no\.?|number|id)?\s*[:#]?\s*#?\s*([a-z]{0,4}-?\d{3,})\b|\b(ord-?\d{3,})\b/gu;
const PHONE = /(?<![\d+])(?:\+?234\s?|0)([789][01]\d)[\s-]?(\d{3})[\s-]?(\d{4})(?!\d)/gu;
const ACCOUNT = /(?<!\d|\d[,.])(\d{10})(?!\d|[,.]\d)/gu;
// "₦15.000" and "₦1.000.000" write thousands with dots (Yoruba INJONGO rows); "2.5m" is a decimal.
const AMOUNT =
  /(₦|\bngn\s?|\bnaira\s?|\bn(?=\s?\d)|#)?\s?(\d{1,3}(?:,\d{3})+|\d{1,3}(?:\.\d{3})+(?![\d,])|\d+)(?:\.(\d+))?\s?(k|m|thousand|million|milli)?\b(\s*(?:naira|ngn))?/gu;

const MULTIPLIER: Record<string, number> = { k: 1e3, thousand: 1e3, m: 1e6, million: 1e6, milli: 1e6 };

/** Month names in English and as Hausa, Igbo and Yoruba speakers write them (folded); bare "may" is a verb. */
const MONTHS: readonly (readonly [string, string])[] = [
  ["january", "january|janairu|jenuwari"],
  ["february", "february|fabrairu|febru?wari"],
  ["march", "march|maris|maachi"],
  ["april", "april|afrilu|eprel|epril"],
  ["may", "mayu|(?:in|of|onwa|watan|osu) may"],
  ["june", "june|yuni|juun"],
  ["july", "july|yuli|julai"],
  ["august", "august|agusta|ogostu"],
  ["september", "september|satumba|septemba"],
  ["october", "october|oktoba"],
  ["november", "november|nuwamba|novemba"],
  ["december", "december|disamba|disemba|dissemba"],
];

// One pass for all twelve months: the month is the capture group that matched.
const MONTH_PATTERN = new RegExp(`\\b(?:${MONTHS.map(([, forms]) => `(${forms})`).join("|")})\\b`);

const WEEKDAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday";
const DATE_WORDS: readonly (readonly [RegExp, string | ((match: RegExpExecArray) => string)])[] = [
  [
    /\b(?:since|from)\s+(?:this\s+|dis\s+)?(?:morning|mornin|mrn|mrng)\b|\b(?:this|dis)\s+(?:morning|mornin|mrn|mrng)\b|\bmorning time\b|\b(?:tun|tun da) safe\b|\bkemgbe ututu\b|\blati aaro\b/,
    "this_morning",
  ],
  [/\blast night\b|\byesternight\b/, "last_night"],
  // The day before yesterday ("shekaranjiya", "nwanne unyaahu", "ijeta") before "yesterday" catches its word.
  [/\bshekaranjiya\b|\bnwanne unyaa?hu\b|\bijeta\b/, "days_ago"],
  // Yoruba "ana" alone is also Hausa "ana" (one is …): only "ni ana" / "lana".
  [/\byesterday\b|\byday\b|\bystdy\b|\blanaa?\b|\bni ana\b|\bjiya\b|\bunyaa?hu\b/, "yesterday"],
  [
    /\blast\s+(?:week|wk)\b|\bl?ose (?:to|ti o) koja\b|\bmakon (?:da ya wuce|jiya)\b|\bsatin da ya wuce\b|\bizu gara aga\b/,
    "last_week",
  ],
  [
    /\blast month\b|\bwatan (?:da ?ya wuce|jiya)\b|\bl?osu (?:to|ti o) (?:koja|lo)\b|\bn?onwa gara aga\b|\bn?onwa gachara\b/,
    "last_month",
  ],
  [
    /\blast year\b|\bshekarar da ta wuce\b|\bbara\b|\bl?odun (?:to|ti o) koja\b|\bn?afo gara aga\b/,
    "last_year",
  ],
  [/\b(?:ojo|ubochi|kwana) \w+(?:-\w+)? (?:seyin|gara aga|da suka wuce)\b/, "days_ago"],
  [/\bl?(?:ose|sati) \w+(?:-\w+)? (?:seyin|da suka wuce)\b|\bizu \w+ gara aga\b/, "weeks_ago"],
  [
    /\b(?:l?osu|watanni|onwa) \w+(?:-\w+)? (?:seyin|da suka wuce|gara aga)\b|\b(?:\d+|two|three|six) months?\b/,
    "months_ago",
  ],
  [new RegExp(`\\bsince\\s+(?:last\\s+)?(${WEEKDAYS})\\b`), (match) => `since_${match[1]}`],
  [/\b(?:\d+|two|three|four|five|six|several|many)\s+(?:days?|dayz)\b/, "days_ago"],
  [/\b(?:\d+|two|three|four|one)\s+(?:weeks?|wks?)\b/, "weeks_ago"],
  [/\btoday\b|\b2day\b|\bthis afternoon\b|\bloni\b|\blonii\b|\byau\b|\btaa\b/, "today"],
  [/\bthis month\b|\bwannan watan\b|\bl?osu yii\b|\bn?onwa a\b|\bn?onwa nke a\b/, "this_month"],
  [
    MONTH_PATTERN,
    (match) => `month_${MONTHS[match.slice(1).findIndex((group) => group !== undefined)]?.[0]}`,
  ],
];

/** Text with the slots replaced by their placeholder tokens, and the slots found. */
export interface SlotExtraction {
  readonly text: string;
  readonly slots: RouterSlots;
}

/**
 * Finds the slots in lower-cased text and replaces each by its placeholder
 * token. Order matters: phone numbers first (a bare +234… reads as a long
 * reference otherwise), references and order ids next (their digits would
 * otherwise read as amounts or account numbers), then accounts, and
 * amounts, which need a currency sign, a multiplier or the word naira (a bare
 * "2" is not money).
 */
export function extractSlots(lowerCased: string): SlotExtraction {
  const slots: RouterSlots = {};
  // Every numeric slot has a digit: most messages have none and skip five regex passes.
  if (!/\d/u.test(lowerCased)) return { text: lowerCased, slots };
  let text = lowerCased;
  text = text.replace(PHONE, (_whole, a: string, b: string, c: string) => {
    slots.phone ??= `+234${a}${b}${c}`;
    return ` ${SLOT_TOKENS.phone} `;
  });
  text = text.replace(REFERENCE, (whole, labelled?: string, prefixed?: string, digits?: string) => {
    const value = labelled ?? prefixed ?? digits ?? "";
    if (!/\d/u.test(value)) return whole;
    slots.reference ??= value.toUpperCase();
    return ` ${SLOT_TOKENS.reference} `;
  });
  text = text.replace(ORDER, (_whole, labelled?: string, prefixed?: string) => {
    slots.orderId ??= (labelled ?? prefixed ?? "").toUpperCase();
    return ` order ${SLOT_TOKENS.orderId} `;
  });
  text = text.replace(ACCOUNT, (_whole, digits: string) => {
    slots.account ??= digits;
    return ` ${SLOT_TOKENS.account} `;
  });
  text = text.replace(
    AMOUNT,
    (whole, currency?: string, integer?: string, fraction?: string, multiplier?: string, naira?: string) => {
      if (currency === undefined && multiplier === undefined && naira === undefined) return whole;
      const dotted = (integer ?? "").includes(".");
      const digits = (integer ?? "").replaceAll(",", "");
      const base = Number(
        dotted
          ? multiplier === undefined
            ? digits.replaceAll(".", "")
            : digits
          : `${digits}${fraction === undefined ? "" : `.${fraction}`}`,
      );
      const value = Math.round(base * (multiplier === undefined ? 1 : (MULTIPLIER[multiplier] ?? 1)));
      if (Number.isFinite(value)) slots.amount ??= value;
      return ` ${SLOT_TOKENS.amount} `;
    },
  );
  return { text, slots };
}

/** The first date phrase in folded text ("since morning", "jiya", "unyahu"…), as a canonical word. */
export function detectDate(folded: string): string | undefined {
  for (const [pattern, name] of DATE_WORDS) {
    const match = pattern.exec(folded);
    if (match !== null) return typeof name === "string" ? name : name(match);
  }
  return undefined;
}
