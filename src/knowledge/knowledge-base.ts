import MiniSearch from "minisearch";

/** One FAQ entry of a tenant (`knowledge` in the tenants file). */
export interface KnowledgeEntry {
  readonly id: string;
  readonly q: string;
  readonly a: string;
}

export interface KnowledgeHit extends KnowledgeEntry {
  readonly score: number;
}

export interface KnowledgeBase {
  /** The best entries for a query (BM25 over question and answer, fuzzy and prefix matching), best first. */
  search(query: string, limit?: number): KnowledgeHit[];
  readonly size: number;
}

/**
 * A tenant's FAQ, indexed with MiniSearch (BM25+). Questions weigh twice the
 * answers; prefix and light fuzzy matching absorb typos and SMS spellings
 * ("delivry fee").
 */
export function createKnowledgeBase(entries: readonly KnowledgeEntry[]): KnowledgeBase {
  const index = new MiniSearch<KnowledgeEntry>({
    fields: ["q", "a"],
    storeFields: ["id", "q", "a"],
    searchOptions: { boost: { q: 2 }, prefix: true, fuzzy: 0.2 },
  });
  index.addAll(entries);
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  return {
    size: entries.length,
    search(query, limit = 3) {
      return index
        .search(query)
        .slice(0, limit)
        .flatMap((result) => {
          const entry = byId.get(String(result.id));
          return entry === undefined ? [] : [{ ...entry, score: Math.round(result.score * 100) / 100 }];
        });
    },
  };
}
