import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { statementPerLimit } from "./statement-per-limit.js";

describe("statementPerLimit", () => {
  const db = new Database(":memory:");
  db.exec("CREATE TABLE t (k TEXT, n INTEGER); CREATE INDEX t_k ON t (k, n)");
  const insert = db.prepare("INSERT INTO t VALUES (?, ?)");
  for (let n = 0; n < 10; n += 1) insert.run(n % 2 === 0 ? "even" : "odd", n);
  const firstOf = statementPerLimit(db, "SELECT n FROM t WHERE k = ? ORDER BY n LIMIT ?");

  it("answers as the bound LIMIT does, from one statement per limit", () => {
    expect(firstOf(2).all("even")).toEqual([{ n: 0 }, { n: 2 }]);
    expect(firstOf(0).all("odd")).toEqual([]);
    expect(firstOf(99).all("odd")).toHaveLength(5);
    expect(firstOf(2)).toBe(firstOf(2));
  });

  it("refuses a limit that is not a whole number, so nothing but digits reaches the SQL", () => {
    expect(() => firstOf(-1)).toThrow(RangeError);
    expect(() => firstOf(1.5)).toThrow(RangeError);
    expect(() => firstOf(Number.NaN)).toThrow(RangeError);
  });

  it("needs exactly one LIMIT ?", () => {
    expect(() => statementPerLimit(db, "SELECT n FROM t LIMIT 3")).toThrow(/exactly one/);
  });
});
