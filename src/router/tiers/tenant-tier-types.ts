import type { CustomIntentClassifier } from "../custom/custom-intent-model.js";
import type { Lexicon } from "../lexicon.js";
import type { FaqIndex } from "./faq-tier.js";

/** A tenant's custom-intent classifier and the lexicon it was trained with. */
export interface CustomIntentTier {
  readonly classifier: CustomIntentClassifier;
  readonly lexicon: Lexicon;
}

/** What a tenant's own tiers need at run time, built once at start (withTenantTiers). */
export interface TenantTiers {
  readonly custom?: CustomIntentTier;
  readonly faq?: FaqIndex;
}
