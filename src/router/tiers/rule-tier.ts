import type { InboundMessage } from "../../whatsapp/index.js";
import { foldDiacritics } from "../normalize.js";
import type { ResponderSettings } from "../responder-settings.js";
import type { RouteResult } from "./route-result.js";

// Whitespace other than a plain space, or two in a row: only then is there a run to fold.
const UNFOLDED_SPACE = /[^\S ]| {2}/;
const SPACE_RUNS = /\s+/gu;
const LEADING_NON_WORD = /^[^\p{L}\p{N}]+/u;
// Sticky: tests the one code point at lastIndex.
const WORD_CHAR_AT = /[\p{L}\p{N}]/uy;

/**
 * Lower case, single spaces, no edge punctuation or emoji: what rules are matched against. It runs on
 * every message, so it touches the middle of the text once: the edges are found from each end. A
 * `[^\p{L}\p{N}]+$` alternative in one global pattern was tried at every position of the text instead,
 * 27 µs of 74 for a 700-character message (bench/RESULTS.md).
 */
export function normalizeForRules(text: string): string {
  let folded = text.normalize("NFKC").toLowerCase();
  if (UNFOLDED_SPACE.test(folded)) folded = folded.replace(SPACE_RUNS, " ");
  const start = LEADING_NON_WORD.exec(folded)?.[0].length ?? 0;
  let end = folded.length;
  while (end > start) {
    // Step back one code point: a low surrogate preceded by a high one is a pair.
    const low = folded.charCodeAt(end - 1);
    const pair =
      low >= 0xdc00 && low <= 0xdfff && end - 2 >= start && isHighSurrogate(folded.charCodeAt(end - 2));
    const at = end - (pair ? 2 : 1);
    WORD_CHAR_AT.lastIndex = at;
    if (WORD_CHAR_AT.test(folded)) break;
    end = at;
  }
  return folded.slice(start, end).trim();
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * Tier 1b, the tenant's rules: the first whose pattern matches the message's
 * text, as written or with tone marks and hooked letters folded ("ẹ káàárọ̀"
 * and "e kaaro" both match a rule written "e kaaro"), if its intent has a reply.
 */
export function ruleTier(settings: ResponderSettings, message: InboundMessage): RouteResult | undefined {
  if (message.text === undefined) return undefined;
  const text = normalizeForRules(message.text);
  const folded = foldDiacritics(text);
  const rule = settings.rules.find(
    (candidate) => candidate.pattern.test(text) || (folded !== text && candidate.pattern.test(folded)),
  );
  const reply = rule === undefined ? undefined : settings.replies[rule.intent];
  return rule === undefined || reply === undefined ? undefined : { intent: rule.intent, reply, tier: "rule" };
}
