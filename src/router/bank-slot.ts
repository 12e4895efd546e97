/**
 * The Nigerian bank or wallet a message names, as its canonical name
 * ("gtb", "GT bank", "Guaranty Trust" → "GTBank"). Names that are also
 * everyday words (access, union, unity, diamond, heritage, sterling; Hausa
 * "uba" father, "kuda" fly) count only beside a bank word ("Access bank",
 * "bankin Union", "ilé-ìfowópamọ́ Sterling") or written with a capital inside
 * a sentence ("… zuwa Access", "UBA"), so "I can't access my app" names no bank.
 */

const PLAIN: readonly (readonly [string, string])[] = [
  ["gtbank|gt bank|gtb|gt|guaranty trust|guarantee trust|gtco", "GTBank"],
  ["zenith", "Zenith Bank"],
  ["united bank for africa|uba ?bank", "UBA"],
  ["first ?bank|fbn", "First Bank"],
  ["fcmb|first city monument", "FCMB"],
  ["fidelity", "Fidelity Bank"],
  ["wema|alat", "Wema Bank"],
  ["stanbic(?: ibtc)?", "Stanbic IBTC"],
  ["polaris", "Polaris Bank"],
  ["keystone", "Keystone Bank"],
  ["ecobank", "Ecobank"],
  ["kuda ?bank|kuda ?mfb", "Kuda"],
  ["opay", "OPay"],
  ["palm ?pay", "PalmPay"],
  ["moniepoint|monie point", "Moniepoint"],
  ["providus", "Providus Bank"],
  ["jaiz", "Jaiz Bank"],
  ["taj ?bank|taj", "TAJBank"],
  ["citi ?bank", "Citibank"],
  ["standard chartered", "Standard Chartered"],
  ["fair ?money", "FairMoney"],
  ["access ?bank|accessbank", "Access Bank"],
  ["union ?bank", "Union Bank"],
  ["unity ?bank", "Unity Bank"],
  ["sterling ?bank", "Sterling Bank"],
  ["heritage ?bank", "Heritage Bank"],
  ["diamond ?bank", "Diamond Bank"],
];

/** Everyday words that name a bank only in a bank's context. */
const CONTEXTUAL: Record<string, string> = {
  access: "Access Bank",
  union: "Union Bank",
  unity: "Unity Bank",
  sterling: "Sterling Bank",
  heritage: "Heritage Bank",
  diamond: "Diamond Bank",
  uba: "UBA",
  kuda: "Kuda",
};

/** How a contextual name is written when its capital alone marks it as a name. */
const CAPITALISED_FORMS = ["Access", "Union", "Unity", "Sterling", "Heritage", "Diamond", "UBA", "Kuda"];

// ASCII names on lower-cased text: no unicode or case-folding regex on the hot path.
const PLAIN_PATTERN = new RegExp(
  `\\b(?:${PLAIN.map(([forms], index) => `(?<b${index}>${forms})`).join("|")})\\b`,
);
const CONTEXTUAL_WORD = new RegExp(`\\b(?:${Object.keys(CONTEXTUAL).join("|")})\\b`);
// "bankin X", "ilé-ìfowópamọ́ X", "ụlọ akụ X", "X bank(i)", "X akaụntụ/asusun": the word is a bank's name.
const BANK_WORD = "(?:bank|banki|bankin|ifowopamo|ulo aku|asusun|akauntu|account)";
const CONTEXTUAL_PATTERN = new RegExp(
  `(?:${BANK_WORD}\\s+(${Object.keys(CONTEXTUAL).join("|")})\\b)|\\b(${Object.keys(CONTEXTUAL).join("|")})\\s+${BANK_WORD}`,
  "u",
);
// UBA in capitals is the bank anywhere; the others only after a word of the same sentence (not its first word).
const CAPITALISED = new RegExp(
  `(?<![\\p{L}\\p{N}])UBA(?![\\p{L}\\p{N}])|(?<=\\p{L}[^.!?]*\\s)(${CAPITALISED_FORMS.join("|")})(?![\\p{L}\\p{N}])`,
  "u",
);

function fold(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .replace(/[ọ]/gu, "o")
    .replace(/[-‐]/gu, " ")
    .toLowerCase();
}

/** The bank or wallet a message names (its canonical name), or undefined. */
export function detectBank(text: string): string | undefined {
  const lower = text.toLowerCase();
  const plain = PLAIN_PATTERN.exec(lower);
  if (plain?.groups !== undefined)
    for (const [name, value] of Object.entries(plain.groups))
      if (value !== undefined) return PLAIN[Number(name.slice(1))]?.[1];
  if (!CONTEXTUAL_WORD.test(lower)) return undefined;
  const folded = fold(text);
  const contextual = CONTEXTUAL_PATTERN.exec(folded);
  const capitalised = contextual === null ? CAPITALISED.exec(text) : null;
  const word = contextual?.[1] ?? contextual?.[2] ?? (capitalised?.[1] ?? capitalised?.[0])?.toLowerCase();
  return word === undefined ? undefined : CONTEXTUAL[word];
}
