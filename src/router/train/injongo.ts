import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isRouterIntent, NEEDS_AGENT } from "../intents.js";
import { foldDiacritics } from "../normalize.js";

/** INJONGO's language codes and the corpus's. */
export const INJONGO_LANGUAGES = { hau: "ha", ibo: "ig", yor: "yo" } as const;
export type InjongoLanguage = keyof typeof INJONGO_LANGUAGES;

/** An INJONGO row as a corpus example (the shape of corpus.ts's LabelledExample, which imports this file). */
export interface InjongoExample {
  readonly text: string;
  readonly label: string;
  readonly lang: (typeof INJONGO_LANGUAGES)[InjongoLanguage];
  readonly group: string;
  readonly source: string;
  readonly crossValidated: true;
  /** The other intents the label map accepts for the row: calibration counts them as right too. */
  readonly alsoRight?: readonly string[];
}

/** One INJONGO row with the router label it trains as (see data/router/injongo/README.md). */
export interface InjongoRow {
  readonly example: InjongoExample;
  readonly injongoLang: InjongoLanguage;
  /** INJONGO's own intent (balance, pay_bill, …): the label map's key for evaluation. */
  readonly injongoIntent: string;
  /** False for the few rows left out of training (see injongoLabel); they are still evaluated. */
  readonly trains: boolean;
}

export class InjongoError extends Error {
  override readonly name = "InjongoError";
}

/** Where the rows live under the router's data folder. */
export const INJONGO_DIR = "injongo";

// Keyword decisions for INJONGO intents the label map calls medium or low. Each
// pattern runs on the folded, lower-cased text. Why each border sits where it
// does is written down in data/router/injongo/README.md.
const TELCO = /\b(?:mtn|glo|airtel|9mobile|etisalat|airtime|recharge|data|ekwenti|kudin waya|katin waya)\b/u;
const UTILITY_BILL =
  /\b(?:dstv|gotv|netflix|startimes?|star time|lantarki|wuta|wutar|gas|gaasi|iskar|mmiri|eletrik|lawma|intaneti|starlink|zoomilon|ruwan gida|kudin ruwa|ruwan mu|ruwana|kudin waya|lissafin|data|mtn|glo|airtel|9mobile)\b|\bowo ina\b|\bina ti mo\b/u;
const LOAN =
  /\b(?:owoyaa|owo yiya|owo ti mo ya|gbese|awin|mogeji|loan|ranci|bashi|gbazinye|gbazitere|mgbazinye|credit card|kaadi kredit|hire)\b|\bowo oko ti ile ise ra\b|\bowo ti mo gba\b|\bkafin a ba ni\b|\bkafin a karbi\b|\bsu bani radiyon\b/u;
/** Rows that ask about one past transaction's fate, a reversal or an unauthorised debit: the agent's. */
const INVESTIGATION =
  /\b(?:akwadoghi|edoghi m anya|onodu azumahia|zuru oke|eziokwu|gara nke oma|kagbuola|enwetala|ogologo oge ole|gosi na emechara|aghugho|kin tura|waye ya turo)\b|\bnkwuputa akauntu\b/u;
/** Rows that ask for something other than what the INJONGO intent names (kept for the agent). */
const OFF_INTENT = /\bchetara m ego ole ha choro\b|\bzitere m ozi ma o buru\b|\bmee ka m mara mgbe i gara\b/u;

function fold(text: string): string {
  return foldDiacritics(text.normalize("NFKC").toLowerCase()).replace(/['’`]/gu, "");
}

/**
 * The one router label an INJONGO row trains as. Every label is one the label
 * map accepts for the row's INJONGO intent, or needs_agent (never an answer);
 * undefined: the row is not trained on.
 */
export function injongoLabel(intent: string, text: string): string | undefined {
  const folded = fold(text);
  if (INVESTIGATION.test(folded) || OFF_INTENT.test(folded)) return NEEDS_AGENT;
  // A telco or data bill's balance or minimum: its natural answer, airtime_data, is one the map refuses,
  // and either label the map accepts would teach the model that data talk is not airtime. Not trained on.
  if ((intent === "bill_balance" || intent === "min_payment") && TELCO.test(folded)) return undefined;
  switch (intent) {
    case "balance":
      return "check_balance";
    case "transactions":
    case "spending_history":
      return "account_statement";
    case "transfer":
      return "transfer_money";
    case "pay_bill":
      return TELCO.test(folded) ? "airtime_data" : "bill_payment";
    case "bill_balance":
      return UTILITY_BILL.test(folded) ? "bill_payment" : "out_of_scope";
    case "min_payment":
    case "interest_rate":
      return LOAN.test(folded) ? "loan_inquiry" : "out_of_scope";
    case "freeze_account":
    case "pin_change":
      return "card_issue";
    case "calendar_update":
    case "time":
    case "weather":
      return "out_of_scope";
    default:
      throw new InjongoError(`INJONGO intent ${intent} has no router label`);
  }
}

// Names that make template variants look different ("… bankin GT" / "… bankin Zenith").
const NAMES =
  /\b(?:gt|gtb|gtbank|guaranty|guarantee|trust|access|zenith|uba|union|unity|first|firstbank|fcmb|fidelity|sterling|sterlin|wema|stanbic|ibtc|polaris|keystone|ecobank|kuda|opay|palmpay|moniepoint|providus|jaiz|taj|diamond|citibank|heritage|lotus|optimus|momo|piggy|vest|alat|roqqu|airteltigo|vodafone|bank|banki|bankin|musa|lami|maryam|ahmad|indo|bello|mahmud|dollar|savings|current|naira|mtn|glo|airtel|9mobile|dstv|gotv|netflix)\b|\d[\d,.]*/gu;

function tokenSet(text: string): Set<string> {
  return new Set(
    fold(text)
      .replace(NAMES, " ")
      .match(/\p{L}+/gu) ?? [],
  );
}

function overlap(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  for (const token of a) if (b.has(token)) shared += 1;
  const union = a.size + b.size - shared;
  return union === 0 ? 1 : shared / union;
}

/**
 * Near-duplicate groups, as INJONGO's split made them: rows of one language
 * and intent whose token sets (bank, person and number names removed) overlap
 * by more than 0.6 share a group, transitively. A group is named by its
 * first row's line, so names are stable.
 */
export function injongoGroups(
  rows: readonly { lang: string; intent: string; text: string; line: number }[],
): string[] {
  const parent = rows.map((_, index) => index);
  const find = (index: number): number => {
    let root = index;
    while (parent[root] !== root) root = parent[root] as number;
    parent[index] = root;
    return root;
  };
  const tokens = rows.map((row) => tokenSet(row.text));
  for (let i = 0; i < rows.length; i += 1)
    for (let j = i + 1; j < rows.length; j += 1) {
      const a = rows[i] as (typeof rows)[number];
      const b = rows[j] as (typeof rows)[number];
      if (a.lang !== b.lang || a.intent !== b.intent) continue;
      if (overlap(tokens[i] as Set<string>, tokens[j] as Set<string>) > 0.6) {
        const rootA = find(i);
        const rootB = find(j);
        if (rootA !== rootB) parent[Math.max(rootA, rootB)] = Math.min(rootA, rootB);
      }
    }
  return rows.map((_, index) => {
    const root = rows[find(index)] as (typeof rows)[number];
    return `injongo/${root.lang}/${root.intent}/${root.line}`;
  });
}

// label_map.tsv writes a few names differently from the router's intents.
const LABEL_ALIASES: Record<string, string> = {
  card_issues: "card_issue",
  payment_checkout: "checkout_payment",
};

/**
 * INJONGO's label map (`injongo_domain, injongo_intent, router_intent, …`):
 * every router intent a row names, including the "(or …)" alternatives, is
 * accepted as a right answer for that INJONGO intent.
 */
export function parseInjongoLabelMap(text: string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const line of text.split("\n").slice(1)) {
    const [, intent, target] = line.split("\t");
    if (intent === undefined || target === undefined) continue;
    const names = (target.match(/[a-z_]+/gu) ?? [])
      .map((name) => LABEL_ALIASES[name] ?? name)
      .filter((name) => isRouterIntent(name));
    if (names.length > 0) map.set(intent, [...new Set(names)]);
  }
  return map;
}

/** Parses the INJONGO language files (`lang, domain, intent, text`, with a header). */
export function parseInjongo(
  files: readonly { name: string; text: string }[],
  labelMap: ReadonlyMap<string, readonly string[]> = new Map(),
): InjongoRow[] {
  const raw: { lang: InjongoLanguage; intent: string; text: string; line: number; source: string }[] = [];
  for (const file of files) {
    const [header = "", ...lines] = file.text.split("\n");
    if (header.trim() !== "lang\tdomain\tintent\ttext")
      throw new InjongoError(`${file.name}: expected the header lang, domain, intent, text`);
    lines.forEach((line, index) => {
      if (line.trim() === "") return;
      const [lang = "", , intent = "", text = ""] = line.split("\t");
      if (!(lang in INJONGO_LANGUAGES) || intent === "" || text.trim() === "")
        throw new InjongoError(`${file.name}:${index + 2}: expected lang, domain, intent, text`);
      raw.push({ lang: lang as InjongoLanguage, intent, text, line: index + 2, source: file.name });
    });
  }
  const groups = injongoGroups(raw);
  return raw.map((row, index) => {
    const label = injongoLabel(row.intent, row.text);
    const alsoRight = (labelMap.get(row.intent) ?? []).filter((intent) => intent !== label);
    return {
      injongoLang: row.lang,
      injongoIntent: row.intent,
      trains: label !== undefined,
      example: {
        text: row.text,
        label: label ?? NEEDS_AGENT,
        lang: INJONGO_LANGUAGES[row.lang],
        group: groups[index] as string,
        source: `${INJONGO_DIR}/${row.source}:${row.line}`,
        crossValidated: true,
        ...(label === undefined || label === NEEDS_AGENT || alsoRight.length === 0 ? {} : { alsoRight }),
      },
    };
  });
}

const FILES = ["hau.tsv", "ibo.tsv", "yor.tsv"];
const LABEL_MAP = "label_map.tsv";

/** The INJONGO rows under `dataDir/injongo` (none when the folder is absent), and a digest of their bytes and the label map's. */
export function loadInjongo(dataDir: string): { rows: InjongoRow[]; sha256: string } {
  const dir = join(dataDir, INJONGO_DIR);
  const hash = createHash("sha256");
  const files = FILES.filter((name) => existsSync(join(dir, name))).map((name) => {
    const text = readFileSync(join(dir, name), "utf8");
    hash.update(`${INJONGO_DIR}/${name}`).update("\0").update(text);
    return { name, text };
  });
  const mapPath = join(dir, LABEL_MAP);
  const mapText = existsSync(mapPath) ? readFileSync(mapPath, "utf8") : "";
  hash.update(LABEL_MAP).update("\0").update(mapText);
  return { rows: parseInjongo(files, parseInjongoLabelMap(mapText)), sha256: hash.digest("hex") };
}
