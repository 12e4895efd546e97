import { z } from "zod";
import type { TurnReply } from "../../conversation/index.js";
import type { DetectedLanguage } from "../detect-language.js";
import { ROUTER_LANGUAGES, type RouterLanguage } from "../lexicon.js";
import type { RouterSlots } from "../slots.js";
import {
  fillTemplate,
  maxRenderedLength,
  parseTemplate,
  placeholdersOf,
  type Template,
  TemplateSyntaxError,
} from "./reply-template.js";
import {
  isReplySlot,
  MAX_MISSING_CHARS,
  MAX_SEEN_CHARS,
  MAX_SLOT_CHARS,
  missingWords,
  REPLY_SLOTS,
  type ReplySlot,
  seenWords,
  slotWords,
} from "./slot-words.js";

type ReplyButtons = NonNullable<TurnReply["buttons"]>;
type ReplyList = NonNullable<TurnReply["list"]>;

/** Meta's limit for a text message body. */
export const MAX_REPLY_CHARS = 4096;
/** Meta's limit for the body of a message with buttons or a list. */
export const MAX_INTERACTIVE_CHARS = 1024;

function limitOf(reply: { readonly buttons?: unknown; readonly list?: unknown }): number {
  return reply.buttons === undefined && reply.list === undefined ? MAX_REPLY_CHARS : MAX_INTERACTIVE_CHARS;
}

/** A reply text: one for every language, or one per language (`{en: "...", pcm: "...", yo: "..."}`). */
export const localizedTextSchema = z.union([
  z.string().min(1).max(MAX_REPLY_CHARS),
  z
    .partialRecord(z.enum(ROUTER_LANGUAGES), z.string().min(1).max(MAX_REPLY_CHARS))
    .refine((texts) => Object.keys(texts).length > 0, { error: "give a text for at least one language" }),
]);
export type LocalizedText = z.output<typeof localizedTextSchema>;

/**
 * The tenant's fallback order (`router.languages`) when it sets none. Pidgin
 * first: most of the traffic is Pidgin, and the replies before per-language
 * texts were Pidgin, so a customer whose language is unknown (no router, or
 * code-switched text) still gets them.
 */
export const DEFAULT_REPLY_LANGUAGES: readonly RouterLanguage[] = ["pcm", "en"];

/** One text of a reply, read: the same for every language (`any`), or per language. */
export interface LocalizedTemplate {
  readonly any?: Template;
  readonly byLanguage: Readonly<Partial<Record<RouterLanguage, Template>>>;
}

/** A tenant's reply for one intent, checked and parsed at start. */
export interface LocalizedReply {
  /** The answer; when `needs` is set, sent only once every needed slot is known (it may name them). */
  readonly text: LocalizedTemplate;
  /** Sent instead of `text` while needed slots are missing: names `{missing}`, may name `{known}`. */
  readonly ask?: LocalizedTemplate;
  /** The `{known}` sentence of `ask`, said only when some needed slot is known: may name `{seen}`. */
  readonly known?: LocalizedTemplate;
  /** The essential slots. */
  readonly needs: readonly ReplySlot[];
  readonly buttons?: ReplyButtons;
  readonly list?: ReplyList;
  readonly handoff?: boolean;
}

/** A reply as the tenant's file gives it (after the schema check of buttons, lists and lengths). */
export interface RawReply {
  readonly text: LocalizedText;
  readonly ask?: LocalizedText;
  readonly known?: LocalizedText;
  readonly needs?: readonly string[];
  readonly buttons?: ReplyButtons;
  readonly list?: ReplyList;
  readonly handoff?: boolean;
}

function longestPlaceholder(name: string, longestKnown: number): number {
  if (name === "missing") return MAX_MISSING_CHARS;
  if (name === "seen") return MAX_SEEN_CHARS;
  if (name === "known") return longestKnown;
  return MAX_SLOT_CHARS;
}

/**
 * Parses and checks one localized text: its braces and placeholder names,
 * that it names only `allowed` placeholders (and `required` ones), and that
 * it cannot render past Meta's limit. Problems go to `problems`, each naming
 * `where` (e.g. `replies.failed_transaction.ask.pcm`).
 */
function compileText(
  text: LocalizedText,
  where: string,
  allowed: ReadonlySet<string>,
  why: string,
  problems: string[],
  options: { required?: string; longestKnown?: number; limit?: number } = {},
): LocalizedTemplate {
  const entries: [string, string][] = typeof text === "string" ? [["", text]] : Object.entries(text);
  const byLanguage: Partial<Record<RouterLanguage, Template>> = {};
  let any: Template | undefined;
  for (const [language, source] of entries) {
    const at = language === "" ? where : `${where}.${language}`;
    let template: Template;
    try {
      template = parseTemplate(source);
    } catch (error) {
      if (!(error instanceof TemplateSyntaxError)) throw error;
      problems.push(`${at}: ${error.message}`);
      continue;
    }
    const names = placeholdersOf(template);
    for (const name of names) if (!allowed.has(name)) problems.push(`${at}: {${name}} ${why}`);
    if (options.required !== undefined && !names.includes(options.required))
      problems.push(`${at}: must name {${options.required}} (what the customer still has to send)`);
    const longest = maxRenderedLength(template, (name) =>
      longestPlaceholder(name, options.longestKnown ?? 0),
    );
    const limit = options.limit ?? MAX_REPLY_CHARS;
    if (longest > limit)
      problems.push(
        `${at}: may render ${longest} characters, over Meta's ${limit}${limit === MAX_REPLY_CHARS ? "" : " for a message with buttons or a list"}; shorten it`,
      );
    if (language === "") any = template;
    else byLanguage[language as RouterLanguage] = template;
  }
  return any === undefined ? { byLanguage } : { any, byLanguage };
}

function longestOf(template: LocalizedTemplate | undefined): number {
  if (template === undefined) return 0;
  const all = [template.any, ...Object.values(template.byLanguage)].filter((t) => t !== undefined);
  return Math.max(0, ...all.map((t) => maxRenderedLength(t, (name) => longestPlaceholder(name, 0))));
}

/**
 * Checks and parses a reply's texts. A slot a `text` names must be in
 * `needs` (otherwise it could be absent); `ask` needs `needs`; `known` needs
 * `ask`. Returns undefined when there were problems (all pushed to `problems`).
 */
export function compileReply(raw: RawReply, where: string, problems: string[]): LocalizedReply | undefined {
  const before = problems.length;
  const needs: ReplySlot[] = [];
  (raw.needs ?? []).forEach((slot, index) => {
    if (isReplySlot(slot)) needs.push(slot);
    else problems.push(`${where}.needs[${index}]: unknown slot "${slot}" (known: ${REPLY_SLOTS.join(", ")})`);
  });
  const limit = limitOf(raw);
  const text = compileText(
    raw.text,
    `${where}.text`,
    new Set(needs),
    needs.length === 0
      ? "cannot be used here: a text names only slots listed in the reply's needs"
      : "cannot be used here: a text names only slots listed in the reply's needs (ask names {missing} and {known})",
    problems,
    { limit },
  );
  if (raw.ask !== undefined && needs.length === 0)
    problems.push(`${where}.ask: an ask needs needs (the slots it asks for)`);
  if (raw.known !== undefined && raw.ask === undefined)
    problems.push(`${where}.known: is said inside ask, which this reply lacks`);
  const known =
    raw.known === undefined
      ? undefined
      : compileText(
          raw.known,
          `${where}.known`,
          new Set(["seen"]),
          "cannot be used here: known names only {seen}",
          problems,
        );
  const ask =
    raw.ask === undefined
      ? undefined
      : compileText(
          raw.ask,
          `${where}.ask`,
          new Set(known === undefined ? ["missing"] : ["missing", "known"]),
          known === undefined
            ? "cannot be used here: ask names only {missing} (and {known} when the reply has a known text)"
            : "cannot be used here: ask names only {missing} and {known}",
          problems,
          { required: "missing", longestKnown: longestOf(known), limit },
        );
  if (problems.length > before) return undefined;
  return {
    text,
    needs,
    ...(ask === undefined ? {} : { ask }),
    ...(known === undefined ? {} : { known }),
    ...(raw.buttons === undefined ? {} : { buttons: raw.buttons }),
    ...(raw.list === undefined ? {} : { list: raw.list }),
    ...(raw.handoff === true ? { handoff: true } : {}),
  };
}

/** What a reply is rendered for. */
export interface ReplyContext {
  /** The customer's language; `mix` or undefined: the tenant's order decides. */
  readonly language?: DetectedLanguage;
  readonly slots: RouterSlots & { bank?: string };
  /** The tenant's fallback order (`router.languages`). */
  readonly order: readonly RouterLanguage[];
}

export interface RenderedReply {
  readonly reply: TurnReply;
  /** Needed slots still missing: non-empty when the reply asks for them. */
  readonly missing: readonly ReplySlot[];
  readonly language: RouterLanguage;
}

/** The customer's language first, then the tenant's order, then every language: who gets which text. */
export function languageChain(context: Pick<ReplyContext, "language" | "order">): RouterLanguage[] {
  const first = context.language === undefined || context.language === "mix" ? [] : [context.language];
  return [...new Set([...first, ...context.order, ...ROUTER_LANGUAGES])];
}

/**
 * The text for the customer's language, else the first of the tenant's order
 * that has one. A text written once for every language renders its slots in
 * the tenant's first language (the owner wrote it in that one, most likely).
 */
function pick(
  template: LocalizedTemplate,
  chain: readonly RouterLanguage[],
  order: readonly RouterLanguage[],
): [Template, RouterLanguage] {
  for (const language of chain) {
    const own = template.byLanguage[language];
    if (own !== undefined) return [own, language];
    if (template.any !== undefined) return [template.any, order[0] ?? language];
  }
  // compileText never yields a template with no text at all.
  throw new Error("a reply with no text");
}

function extrasOf(reply: LocalizedReply): Omit<TurnReply, "text"> {
  return {
    ...(reply.buttons === undefined ? {} : { buttons: reply.buttons }),
    ...(reply.list === undefined ? {} : { list: reply.list }),
    ...(reply.handoff === true ? { handoff: true } : {}),
  };
}

function capped(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}

/**
 * The reply for this customer: `text` when every needed slot is known, else
 * `ask` (naming only what is missing), else undefined (no local answer: the
 * agent takes it).
 */
export function renderReply(reply: LocalizedReply, context: ReplyContext): RenderedReply | undefined {
  const missing = reply.needs.filter((slot) => slotWords(slot, context.slots, "en") === undefined);
  const chain = languageChain(context);
  const extras = extrasOf(reply);
  if (missing.length === 0) {
    const [template, language] = pick(reply.text, chain, context.order);
    const text = fillTemplate(template, (name) =>
      isReplySlot(name) ? slotWords(name, context.slots, language) : undefined,
    );
    return { reply: { text: capped(text, limitOf(reply)), ...extras }, missing, language };
  }
  if (reply.ask === undefined) return undefined;
  const [template, language] = pick(reply.ask, chain, context.order);
  const seen = reply.needs.filter((slot) => !missing.includes(slot));
  const known = (): string => {
    if (reply.known === undefined || seen.length === 0) return "";
    const [sentence, knownLanguage] = pick(reply.known, [language, ...chain], context.order);
    return fillTemplate(sentence, (name) =>
      name === "seen" ? seenWords(context.slots, seen, knownLanguage) : undefined,
    );
  };
  const text = fillTemplate(template, (name) => {
    if (name === "missing") return missingWords(missing, language);
    if (name === "known") return known();
    return undefined;
  });
  return { reply: { text: capped(text, limitOf(reply)), ...extras }, missing, language };
}

/** A reply that is the same whatever the customer said (fallback, stale): rendered with no slots. */
export function renderPlain(reply: LocalizedReply, context: Omit<ReplyContext, "slots">): TurnReply {
  return (
    renderReply(reply, { ...context, slots: {} })?.reply ?? {
      // A reply that needs slots, rendered without any and without an ask: its text with the slots left out.
      text: fillTemplate(pick(reply.text, languageChain(context), context.order)[0], () => ""),
      ...extrasOf(reply),
    }
  );
}
