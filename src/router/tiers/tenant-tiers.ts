import { createCustomIntentClassifier } from "../custom/custom-intent-model.js";
import { type CustomIntentsContext, loadOrTrainCustomIntents } from "../custom/custom-intent-store.js";
import type { ResponderSettings } from "../responder-settings.js";
import { createFaqIndex } from "./faq-tier.js";

export type { CustomIntentTier, TenantTiers } from "./tenant-tier-types.js";

/**
 * Builds a tenant's custom-intent classifier (loaded from its trained file,
 * or trained now) and FAQ index, and returns its settings with them. Without
 * the base router, custom intents are off (their training and gating need it).
 */
export function withTenantTiers(
  tenantId: string,
  settings: ResponderSettings,
  context: CustomIntentsContext | undefined,
): ResponderSettings {
  const custom =
    context === undefined || settings.customIntents.length === 0
      ? undefined
      : {
          classifier: createCustomIntentClassifier(
            loadOrTrainCustomIntents(tenantId, settings.customIntents, context),
          ),
          lexicon: context.lexicon,
        };
  const faq = createFaqIndex(settings.faq);
  if (custom === undefined && faq === undefined) return settings;
  return {
    ...settings,
    tiers: { ...(custom === undefined ? {} : { custom }), ...(faq === undefined ? {} : { faq }) },
  };
}
