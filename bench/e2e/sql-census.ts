/**
 * What the embedded gateway asks of SQLite, statement by statement: loaded into the gateway with
 * `--import`, it times every run/get/all/iterate of a prepared statement and every short `exec`
 * (BEGIN, COMMIT), and on exit writes the statements by total time, with their count, µs a call and the
 * bytes of their parameters (a row past about 1 KB spills into overflow pages at 1 KiB pages):
 *
 *   BENCH_GATEWAY_NODE_ARGS="--import $PWD/dist/bench/e2e/sql-census.js" \
 *     node dist/bench/e2e/run.js --mode embedded --rate 400 --duration 15 --coalesce off
 *   cat /tmp/sql-census-*.txt        # SQL_CENSUS_DIR sets the folder; one file per process
 *
 * The timing wraps each call, so it adds about a microsecond to each: compare counts and shares across
 * builds, not absolute CPU.
 */
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";

interface Tally {
  calls: number;
  ns: number;
  parameterBytes: number;
}

type Method = (...args: unknown[]) => unknown;
interface DatabasePrototype {
  prepare: (this: unknown, source: string) => Record<string, Method>;
  exec: (this: unknown, source: string) => unknown;
}

const tallies = new Map<string, Tally>();
const note = (source: string, ns: number, args: readonly unknown[]) => {
  const key = source.replace(/\s+/g, " ").trim().slice(0, 120);
  const tally = tallies.get(key) ?? { calls: 0, ns: 0, parameterBytes: 0 };
  tally.calls += 1;
  tally.ns += ns;
  tally.parameterBytes += args.length === 0 ? 0 : (JSON.stringify(args)?.length ?? 0);
  tallies.set(key, tally);
};

// The gateway's own copy of better-sqlite3: the one `sharpsharp start` resolves from its working directory.
const Database = createRequire(join(process.cwd(), "package.json"))("better-sqlite3") as {
  prototype: DatabasePrototype;
};
const { prepare, exec } = Database.prototype;
Database.prototype.exec = function (this: unknown, source: string) {
  const started = process.hrtime.bigint();
  try {
    return exec.call(this, source);
  } finally {
    // Schema scripts run once; the short ones are the transaction statements a census is after.
    if (source.length < 40) note(`EXEC ${source}`, Number(process.hrtime.bigint() - started), []);
  }
};
Database.prototype.prepare = function (this: unknown, source: string) {
  const statement = prepare.call(this, source);
  for (const method of ["run", "get", "all", "iterate"]) {
    const original = statement[method] as Method;
    statement[method] = function (this: unknown, ...args: unknown[]) {
      const started = process.hrtime.bigint();
      try {
        return original.apply(this, args);
      } finally {
        note(source, Number(process.hrtime.bigint() - started), args);
      }
    };
  }
  return statement;
};

const write = () => {
  const rows = [...tallies].sort((a, b) => b[1].ns - a[1].ns);
  let calls = 0;
  let ns = 0;
  for (const [, tally] of rows) {
    calls += tally.calls;
    ns += tally.ns;
  }
  const lines = rows.map(
    ([source, t]) =>
      `${String(t.calls).padStart(8)} ${(t.ns / 1e6).toFixed(0).padStart(7)} ms ${(t.ns / t.calls / 1000).toFixed(1).padStart(8)} µs ${String(Math.round(t.parameterBytes / t.calls)).padStart(6)} B  ${source}`,
  );
  const header = `${calls} statements, ${(ns / 1e6).toFixed(0)} ms in all (pid ${process.pid})\n   calls   total     a call   params  statement\n`;
  writeFileSync(
    join(process.env.SQL_CENSUS_DIR ?? tmpdir(), `sql-census-${process.pid}.txt`),
    `${header}${lines.join("\n")}\n`,
  );
};
process.on("exit", write);
// The bench stops the gateway with SIGTERM; the gateway's own handler exits, which runs the one above.
