import { z } from "zod";
import type { TenantConfig } from "../config/index.js";
import type { TurnReply } from "../conversation/index.js";
import { ResponderSettingsError } from "../conversation/index.js";
import { type CustomIntentDefinition, checkCustomIntents } from "./custom/custom-intent-definitions.js";
import { DEFAULT_RESPONDER_SETTINGS } from "./default-responder-settings.js";
import { DEFAULT_FAQ_SETTINGS, type FaqSettings, knowledgeEntriesOf } from "./faq-settings.js";
import { isRouterIntent, NEEDS_AGENT, ROUTER_INTENTS } from "./intents.js";
import { ROUTER_LANGUAGES, type RouterLanguage } from "./lexicon.js";
import {
  compileReply,
  DEFAULT_REPLY_LANGUAGES,
  type LocalizedReply,
  localizedTextSchema,
  renderPlain,
} from "./replies/localized-reply.js";
import type { TenantTiers } from "./tiers/tenant-tier-types.js";

// Meta's limits for list messages (docs/whatsapp-cloud-api.md §6).
const listSchema = z
  .object({
    button: z.string().min(1).max(20),
    sections: z
      .array(
        z.object({
          title: z.string().min(1).max(24).optional(),
          rows: z
            .array(
              z.object({
                id: z.string().min(1).max(200),
                title: z.string().min(1).max(24),
                description: z.string().min(1).max(72).optional(),
              }),
            )
            .min(1),
        }),
      )
      .min(1)
      .max(10),
  })
  .refine((list) => list.sections.reduce((rows, section) => rows + section.rows.length, 0) <= 10, {
    error: "a list holds at most 10 rows in all its sections",
  })
  .refine(
    (list) => list.sections.length === 1 || list.sections.every((section) => section.title !== undefined),
    {
      error: "every section of a list with several sections needs a title",
    },
  );

const replySchema = z
  .looseObject({
    /** One text, or one per language ({en, pcm, yo, ha, ig}); may name slots (replies/localized-reply.ts). */
    text: localizedTextSchema,
    /** The essential slots: `text` is said once all are known, `ask` (if any) while some are missing. */
    needs: z.array(z.string()).optional(),
    ask: localizedTextSchema.optional(),
    known: localizedTextSchema.optional(),
    buttons: z
      .array(z.object({ id: z.string().min(1).max(256), title: z.string().min(1).max(20) }))
      .min(1)
      .max(3)
      .optional(),
    list: listSchema.optional(),
    /** Sending this reply hands the conversation to a human. */
    handoff: z.boolean().optional(),
  })
  .refine((reply) => reply.buttons === undefined || reply.list === undefined, {
    error: "a reply has buttons or a list, not both",
  });

const ruleSchema = z.object({
  match: z.string().min(1),
  intent: z.string().min(1),
});

/** The part of a tenant's settings the first responder reads; everything is optional. */
const settingsSchema = z.looseObject({
  router: z
    .looseObject({
      /** Intents the classifier may answer locally (default: all); unknown names are a startup error. */
      enabledIntents: z.array(z.string()).optional(),
      rules: z.array(ruleSchema).optional(),
      /** Interactive reply ids that name a different intent than themselves. */
      replyIds: z.record(z.string(), z.string()).optional(),
      /** Which language's text a customer gets when theirs has none (and for "mix"): default pcm, en. */
      languages: z.array(z.enum(ROUTER_LANGUAGES)).min(1).optional(),
      /** The tenant's own intents: 10–30 examples and a reply each (docs/router.md, "Custom intents"). */
      custom: z
        .array(
          z.object({ intent: z.string().min(1).max(64), examples: z.array(z.string()), reply: replySchema }),
        )
        .optional(),
      /** The FAQ tier over the tenant's `knowledge` entries. */
      faq: z
        .object({
          answerLocally: z.boolean().optional(),
          minScore: z.number().positive().optional(),
          minMargin: z.number().min(0).max(1).optional(),
        })
        .optional(),
    })
    .optional(),
  replies: z.record(z.string(), replySchema).optional(),
  fallback: replySchema.optional(),
  stale: replySchema.optional(),
});

/** One compiled routing rule. */
export interface CompiledRule {
  readonly pattern: RegExp;
  readonly intent: string;
}

/** A tenant's first-responder settings, merged with the defaults and compiled. */
export interface ResponderSettings {
  /** The tenant's rules first, then the defaults'. */
  readonly rules: readonly CompiledRule[];
  readonly replyIds: Readonly<Record<string, string>>;
  /** Intents the classifier may answer locally: `router.enabledIntents`, or every intent. */
  readonly enabledIntents: ReadonlySet<string>;
  /** The defaults' replies with the tenant's on top, per intent, in the tenant's first language and without slots. */
  readonly replies: Readonly<Record<string, TurnReply>>;
  readonly fallback: TurnReply;
  readonly stale: TurnReply;
  /** The replies as written (per language, with slots): what the tiers render for each customer. */
  readonly templates: Readonly<Record<string, LocalizedReply>>;
  readonly fallbackTemplate: LocalizedReply;
  readonly staleTemplate: LocalizedReply;
  /** The tenant's language fallback order (`router.languages`, default pcm then en). */
  readonly languages: readonly RouterLanguage[];
  /** The tenant's own intents (their replies are in `replies` and `templates`); trained into `tiers.custom`. */
  readonly customIntents: readonly CustomIntentDefinition[];
  /** The FAQ tier's settings and the tenant's knowledge entries. */
  readonly faq: FaqSettings;
  /** Classifiers and indexes built at start from the above (prepareTenantTiers); none: those tiers are off. */
  readonly tiers?: TenantTiers;
}

/**
 * Reads and checks a tenant's `router`, `replies`, `fallback` and `stale`
 * settings (throws ResponderSettingsError listing every problem), merged
 * with DEFAULT_RESPONDER_SETTINGS for whatever the tenant leaves out. Rule
 * patterns are case-insensitive and Unicode-aware.
 */
export function resolveResponderSettings(tenant: TenantConfig): ResponderSettings {
  const parsed = settingsSchema.safeParse(tenant.settings);
  if (!parsed.success) {
    throw new ResponderSettingsError(
      tenant.id,
      parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`),
    );
  }
  const own = parsed.data;
  const defaults = DEFAULT_RESPONDER_SETTINGS;
  const problems: string[] = [];
  const compile = (rule: { match: string; intent: string }, where: string): CompiledRule[] => {
    try {
      return [{ pattern: new RegExp(rule.match, "iu"), intent: rule.intent }];
    } catch (error) {
      problems.push(`${where}.match is not a valid regular expression (${(error as Error).message})`);
      return [];
    }
  };
  const rules = [
    ...(own.router?.rules ?? []).flatMap((rule, index) => compile(rule, `router.rules[${index}]`)),
    ...defaults.router.rules.flatMap((rule) => compile(rule, "default rule")),
  ];
  const enabled = own.router?.enabledIntents ?? [...ROUTER_INTENTS];
  const custom = own.router?.custom ?? [];
  problems.push(...checkCustomIntents(custom, (name) => isRouterIntent(name) || name === NEEDS_AGENT));
  const customNames = new Set(custom.map((definition) => definition.intent));
  // Rules and reply ids may also name the tenant's own intents (a "Menu" button).
  const checkIntent = (intent: string, where: string, allowCustom = true) => {
    if (!isRouterIntent(intent) && !(allowCustom && customNames.has(intent)))
      problems.push(`${where}: unknown intent "${intent}" (known: ${ROUTER_INTENTS.join(", ")})`);
  };
  enabled.forEach((intent, index) => {
    checkIntent(intent, `router.enabledIntents[${index}]`, false);
  });
  (own.router?.rules ?? []).forEach((rule, index) => {
    checkIntent(rule.intent, `router.rules[${index}].intent`);
  });
  for (const [id, intent] of Object.entries(own.router?.replyIds ?? {}))
    checkIntent(intent, `router.replyIds.${id}`);
  if (problems.length > 0) throw new ResponderSettingsError(tenant.id, problems);
  const templates: Record<string, LocalizedReply> = {};
  for (const [intent, reply] of Object.entries(defaults.replies)) {
    const compiled = compileReply(replySchema.parse(reply), `default replies.${intent}`, problems);
    if (compiled !== undefined) templates[intent] = compiled;
  }
  for (const [intent, reply] of Object.entries(own.replies ?? {})) {
    const compiled = compileReply(reply, `replies.${intent}`, problems);
    if (compiled !== undefined) templates[intent] = compiled;
  }
  for (const definition of custom) {
    const compiled = compileReply(definition.reply, `router.custom.${definition.intent}.reply`, problems);
    if (compiled !== undefined) templates[definition.intent] = compiled;
  }
  const fallbackTemplate = compileReply(
    own.fallback ?? replySchema.parse(defaults.fallback),
    "fallback",
    problems,
  );
  const staleTemplate = compileReply(own.stale ?? replySchema.parse(defaults.stale), "stale", problems);
  if (problems.length > 0 || fallbackTemplate === undefined || staleTemplate === undefined)
    throw new ResponderSettingsError(tenant.id, problems);
  const languages = own.router?.languages ?? DEFAULT_REPLY_LANGUAGES;
  // The replies as plain TurnReplies, in the tenant's first language (for callers that do not render per customer).
  const plain = (reply: LocalizedReply): TurnReply => renderPlain(reply, { order: languages });
  const replies: Record<string, TurnReply> = {};
  for (const [intent, template] of Object.entries(templates)) replies[intent] = plain(template);
  return {
    rules,
    replyIds: own.router?.replyIds ?? {},
    enabledIntents: new Set(enabled),
    replies,
    fallback: plain(fallbackTemplate),
    stale: plain(staleTemplate),
    templates,
    fallbackTemplate,
    staleTemplate,
    languages,
    customIntents: custom.map(({ intent, examples }) => ({ intent, examples })),
    faq: { ...DEFAULT_FAQ_SETTINGS, ...own.router?.faq, entries: knowledgeEntriesOf(tenant.settings) },
  };
}
