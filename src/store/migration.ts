/**
 * One schema change. Postgres runs `sql` with `search_path` set to the
 * store's schema; SQLite shares its file with other modules, so its tables
 * carry a `store_` prefix instead.
 */
export interface Migration {
  /** Applied in ascending order; never renumber or edit one that has shipped, add a new one. */
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

export interface MigrateResult {
  /** Versions this call applied (empty when the schema was up to date). */
  readonly applied: number[];
  /** The schema's version afterwards. */
  readonly version: number;
}
