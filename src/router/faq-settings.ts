/** One FAQ entry of a tenant (`knowledge` in the tenants file; the agent checks them strictly). */
export interface FaqEntry {
  readonly id: string;
  readonly q: string;
  readonly a: string;
}

/** `router.faq` with defaults, and the entries it searches. */
export interface FaqSettings {
  /** Answer an entry locally when retrieval is confident; otherwise (and when false) entries only become hints. */
  readonly answerLocally: boolean;
  /** Lowest BM25 score (MiniSearch, questions boosted ×2) of the best entry for a local answer. */
  readonly minScore: number;
  /** Lowest relative lead of the best entry over the second, (best − second) / best, for a local answer. */
  readonly minMargin: number;
  readonly entries: readonly FaqEntry[];
}

/**
 * Off unless the tenant says so: a knowledge answer is written for the agent
 * to quote in context, and a BM25 match on a few shared words is not yet a
 * question that entry answers. The thresholds come from the FAQ tier's test
 * knowledge base (faq-tier.test.ts): rephrasings of a question score 14–150
 * with a lead of 70% or more over the second entry ("wetin be una delivery
 * fee" 14.0 against 1.6); vague messages ("I get question") score under 5.
 * BM25 scores grow with the message's length, hence the margin as well.
 */
export const DEFAULT_FAQ_SETTINGS: Omit<FaqSettings, "entries"> = {
  answerLocally: false,
  minScore: 10,
  minMargin: 0.5,
};

/** The tenant's well-formed `knowledge` entries (malformed ones are the agent settings' error to report). */
export function knowledgeEntriesOf(settings: Readonly<Record<string, unknown>>): FaqEntry[] {
  const knowledge = settings.knowledge;
  if (!Array.isArray(knowledge)) return [];
  return knowledge.flatMap((entry: unknown) => {
    if (typeof entry !== "object" || entry === null) return [];
    const { id, q, a } = entry as Record<string, unknown>;
    return typeof id === "string" && typeof q === "string" && typeof a === "string" ? [{ id, q, a }] : [];
  });
}
