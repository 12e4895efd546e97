import type { RouterLanguage } from "../lexicon.js";
import type { RouterSlots } from "../slots.js";

/**
 * How slots read to a customer, per language. NATIVE SPEAKERS SHOULD REVIEW
 * the Yoruba, Hausa and Igbo words here: they were written by the project,
 * not by native speakers.
 */

/** The slots a reply may name (RouterSlots' keys; `bank` is filled by the bank-name extractor). */
export const REPLY_SLOTS = ["amount", "date", "account", "reference", "orderId", "phone", "bank"] as const;
export type ReplySlot = (typeof REPLY_SLOTS)[number];

const SLOT_SET: ReadonlySet<string> = new Set(REPLY_SLOTS);
export function isReplySlot(name: string): name is ReplySlot {
  return SLOT_SET.has(name);
}

/** A slot value as written by the customer is cut here: a reply must stay far below Meta's 4,096 characters. */
const MAX_WRITTEN_CHARS = 40;

/** The longest any one slot renders (value and its label in `{seen}`), for the start-time length check. */
export const MAX_SLOT_CHARS = 80;
/** The longest `{missing}` renders: every slot's name and the joins. */
export const MAX_MISSING_CHARS = 400;
/** The longest `{seen}` renders: every slot with its label and the joins. */
export const MAX_SEEN_CHARS = REPLY_SLOTS.length * (MAX_SLOT_CHARS + 2);

const AND: Record<RouterLanguage, string> = { en: "and", pcm: "and", yo: "àti", ha: "da", ig: "na" };

/** What to ask for when a slot is missing ("Please send {missing}"). */
const MISSING: Record<RouterLanguage, Record<ReplySlot, string>> = {
  en: {
    amount: "the amount",
    date: "the date",
    account: "your account number",
    reference: "the transaction reference",
    orderId: "your order number",
    phone: "your phone number",
    bank: "the bank's name",
  },
  pcm: {
    amount: "the amount",
    date: "the date",
    account: "your account number",
    reference: "the transaction reference",
    orderId: "your order number",
    phone: "your phone number",
    bank: "the bank name",
  },
  yo: {
    amount: "iye owó náà",
    date: "ọjọ́ tí ó ṣẹlẹ̀",
    account: "nọ́mbà àkáǹtì rẹ",
    reference: "nọ́mbà ìtọ́kasí ìdúnàádúrà náà",
    orderId: "nọ́mbà ọjà rẹ",
    phone: "nọ́mbà fóònù rẹ",
    bank: "orúkọ báǹkì náà",
  },
  ha: {
    amount: "adadin kuɗin",
    date: "ranar da abin ya faru",
    account: "lambar asusunka",
    reference: "lambar shaidar cinikin",
    orderId: "lambar odarka",
    phone: "lambar wayarka",
    bank: "sunan bankin",
  },
  ig: {
    amount: "ego ole ọ bụ",
    date: "ụbọchị ọ mere",
    account: "nọmba akaụntụ gị",
    reference: "nọmba ntụaka azụmahịa ahụ",
    orderId: "nọmba ọda gị",
    phone: "nọmba ekwentị gị",
    bank: "aha ụlọ akụ ahụ",
  },
};

/** Labels for `{seen}` ("account ******6789"); amounts and dates read without one. */
const LABEL: Record<RouterLanguage, Partial<Record<ReplySlot, string>>> = {
  en: { account: "account", reference: "reference", orderId: "order", phone: "phone", bank: "bank" },
  pcm: { account: "account", reference: "reference", orderId: "order", phone: "phone", bank: "bank" },
  yo: { account: "àkáǹtì", reference: "ìtọ́kasí", orderId: "ọjà", phone: "fóònù", bank: "báǹkì" },
  ha: { account: "asusu", reference: "lambar shaida", orderId: "oda", phone: "waya", bank: "banki" },
  ig: { account: "akaụntụ", reference: "ntụaka", orderId: "ọda", phone: "ekwentị", bank: "ụlọ akụ" },
};

const DATES: Record<RouterLanguage, Record<string, string>> = {
  en: {
    this_morning: "since this morning",
    today: "today",
    yesterday: "yesterday",
    last_night: "last night",
    last_week: "last week",
    last_month: "last month",
    days_ago: "some days ago",
    weeks_ago: "some weeks ago",
  },
  pcm: {
    this_morning: "since morning",
    today: "today",
    yesterday: "yesterday",
    last_night: "last night",
    last_week: "last week",
    last_month: "last month",
    days_ago: "some days now",
    weeks_ago: "some weeks now",
  },
  yo: {
    this_morning: "láti àárọ̀",
    today: "lónìí",
    yesterday: "lánàá",
    last_night: "ní alẹ́ àná",
    last_week: "ní ọ̀sẹ̀ tó kọjá",
    last_month: "ní oṣù tó kọjá",
    days_ago: "ní ọjọ́ díẹ̀ sẹ́yìn",
    weeks_ago: "ní ọ̀sẹ̀ díẹ̀ sẹ́yìn",
  },
  ha: {
    this_morning: "tun da safe",
    today: "yau",
    yesterday: "jiya",
    last_night: "daren jiya",
    last_week: "makon da ya wuce",
    last_month: "watan da ya wuce",
    days_ago: "'yan kwanaki da suka wuce",
    weeks_ago: "'yan makonni da suka wuce",
  },
  ig: {
    this_morning: "kemgbe ụtụtụ",
    today: "taa",
    yesterday: "ụnyaahụ",
    last_night: "n'abalị ụnyaahụ",
    last_week: "izu gara aga",
    last_month: "ọnwa gara aga",
    days_ago: "ụbọchị ole na ole gara aga",
    weeks_ago: "izu ole na ole gara aga",
  },
};

const WEEKDAY_ORDER = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];
const WEEKDAYS: Record<RouterLanguage, readonly string[]> = {
  en: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
  pcm: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
  yo: ["Ọjọ́ Ajé", "Ọjọ́ Ìṣẹ́gun", "Ọjọ́rú", "Ọjọ́bọ̀", "Ọjọ́ Ẹtì", "Ọjọ́ Àbámẹ́ta", "Ọjọ́ Àìkú"],
  ha: ["Litinin", "Talata", "Laraba", "Alhamis", "Juma'a", "Asabar", "Lahadi"],
  ig: ["Mọnde", "Tiuzdee", "Wenezdee", "Tọzdee", "Fraịdee", "Satọdee", "Sọndee"],
};
const SINCE_WEEKDAY: Record<RouterLanguage, (day: string) => string> = {
  en: (day) => `since ${day}`,
  pcm: (day) => `since ${day}`,
  yo: (day) => `láti ${day}`,
  ha: (day) => `tun ranar ${day}`,
  ig: (day) => `kemgbe ${day}`,
};

/** Banks' names as people write them; other values keep the extractor's spelling, capitalised. */
const BANK_NAMES: Record<string, string> = {
  gtbank: "GTBank",
  gtb: "GTBank",
  access: "Access Bank",
  zenith: "Zenith Bank",
  firstbank: "First Bank",
  first_bank: "First Bank",
  uba: "UBA",
  fidelity: "Fidelity Bank",
  fcmb: "FCMB",
  sterling: "Sterling Bank",
  wema: "Wema Bank",
  union: "Union Bank",
  stanbic: "Stanbic IBTC",
  ecobank: "Ecobank",
  polaris: "Polaris Bank",
  keystone: "Keystone Bank",
  opay: "OPay",
  palmpay: "PalmPay",
  moniepoint: "Moniepoint",
  kuda: "Kuda",
};

function written(value: string): string {
  return value.length > MAX_WRITTEN_CHARS ? `${value.slice(0, MAX_WRITTEN_CHARS - 1)}…` : value;
}

/** "₦15,000"; kobo shown only when there are any. */
export function formatNaira(amount: number): string {
  const [whole = "0", kobo] = Math.abs(amount).toFixed(2).split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/gu, ",");
  return `${amount < 0 ? "-" : ""}₦${grouped}${kobo === "00" || kobo === undefined ? "" : `.${kobo}`}`;
}

/** Every digit but the last four hidden: "******6789". */
export function maskDigits(value: string): string {
  const digits = value.replace(/\D/gu, "");
  return digits.length <= 4 ? digits : `${"*".repeat(digits.length - 4)}${digits.slice(-4)}`;
}

export function dateWords(date: string, language: RouterLanguage): string {
  const fixed = DATES[language][date];
  if (fixed !== undefined) return fixed;
  if (date.startsWith("since_")) {
    const index = WEEKDAY_ORDER.indexOf(date.slice("since_".length));
    const day = WEEKDAYS[language][index];
    if (day !== undefined) return SINCE_WEEKDAY[language](day);
  }
  return written(date.replaceAll("_", " "));
}

function bankName(bank: string): string {
  const key = bank
    .trim()
    .toLowerCase()
    .replace(/\s+bank$/u, "")
    .replace(/\s+/gu, "_");
  const known = BANK_NAMES[key];
  if (known !== undefined) return known;
  return written(
    bank.replace(
      /(^|[\s_-])(\p{Ll})/gu,
      (_all, edge: string, letter: string) => `${edge}${letter.toUpperCase()}`,
    ),
  );
}

/** One slot's value as a person reads it, or undefined when the slot is absent. */
export function slotWords(
  slot: ReplySlot,
  slots: RouterSlots & { bank?: string },
  language: RouterLanguage,
): string | undefined {
  switch (slot) {
    case "amount":
      return slots.amount === undefined ? undefined : formatNaira(slots.amount);
    case "date":
      return slots.date === undefined ? undefined : dateWords(slots.date, language);
    case "account":
      return slots.account === undefined ? undefined : maskDigits(slots.account);
    case "phone":
      return slots.phone === undefined ? undefined : maskDigits(slots.phone);
    case "reference":
      return slots.reference === undefined ? undefined : written(slots.reference);
    case "orderId":
      return slots.orderId === undefined ? undefined : written(slots.orderId);
    case "bank":
      return slots.bank === undefined ? undefined : bankName(slots.bank);
  }
}

/** "a, b and c" in the language. */
export function joinWords(words: readonly string[], language: RouterLanguage): string {
  if (words.length <= 1) return words[0] ?? "";
  return `${words.slice(0, -1).join(", ")} ${AND[language]} ${words[words.length - 1]}`;
}

/** `{missing}`: what to ask for, in the language. */
export function missingWords(missing: readonly ReplySlot[], language: RouterLanguage): string {
  return joinWords(
    missing.map((slot) => MISSING[language][slot]),
    language,
  );
}

/** `{seen}`: the slots found, each with its label where it needs one ("₦15,000, since morning, account ******6789"). */
export function seenWords(
  slots: RouterSlots & { bank?: string },
  which: readonly ReplySlot[],
  language: RouterLanguage,
): string {
  return which
    .flatMap((slot) => {
      const value = slotWords(slot, slots, language);
      if (value === undefined) return [];
      const label = LABEL[language][slot];
      return [label === undefined ? value : `${label} ${value}`];
    })
    .join(", ");
}
