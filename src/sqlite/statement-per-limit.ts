import type { Statement as SqliteStatement } from "better-sqlite3";
import type { SqliteDatabase } from "./open-sqlite.js";

type Statement = SqliteStatement<unknown[]>;

/** Distinct limits kept prepared; past that many a statement is prepared for its one run. */
const MAX_PREPARED_LIMITS = 256;

/**
 * `sql`, whose one `LIMIT ?` is written out as a number instead, prepared once per limit. A bound
 * LIMIT costs about 20 µs more per run than a written one on an indexed query (SQLite 3.53 as
 * better-sqlite3 12 builds it, with STAT4): the job table's look for due jobs, run after every job,
 * took 35 µs to find none (5 µs written out), bench/RESULTS.md.
 */
export function statementPerLimit(db: SqliteDatabase, sql: string): (limit: number) => Statement {
  const parts = sql.split("LIMIT ?");
  if (parts.length !== 2) throw new Error(`statementPerLimit needs exactly one "LIMIT ?": ${sql}`);
  const [head, tail] = parts as [string, string];
  const prepared = new Map<number, Statement>();
  return (limit) => {
    if (!Number.isSafeInteger(limit) || limit < 0)
      throw new RangeError(`a LIMIT must be a whole number ≥ 0, not ${limit}`);
    const known = prepared.get(limit);
    if (known !== undefined) return known;
    const statement = db.prepare<unknown[]>(`${head}LIMIT ${limit}${tail}`);
    if (prepared.size < MAX_PREPARED_LIMITS) prepared.set(limit, statement);
    return statement;
  };
}
