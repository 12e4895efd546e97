import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SharpsharpError } from "../../src/errors/index.js";
import {
  createJobRunner,
  createJobTable,
  DUE_JOBS_SQL,
  type JobRunner,
  type JobRunnerOptions,
  type JobTable,
} from "../../src/queue/embedded/index.js";
import { giveUp, type JobHandler, QueueUnavailableError, retryAt } from "../../src/queue/index.js";
import { openSqliteDatabase, type SqliteDatabase } from "../../src/sqlite/index.js";
import { sleep } from "../support/contract-backends.js";
import { eventually } from "../support/eventually.js";

const Q = "work";

/** One temp dir per test: a real SQLite file that can be closed and opened again. */
const dirs: string[] = [];
const dbs: SqliteDatabase[] = [];
const runners: JobRunner[] = [];

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "ss-jobs-"));
  dirs.push(dir);
  return dir;
}

function open(dir: string): { db: SqliteDatabase; table: JobTable } {
  const db = openSqliteDatabase({ dataDir: dir });
  dbs.push(db);
  return { db, table: createJobTable(db) };
}

function run<T>(table: JobTable, handler: JobHandler<T>, options: Partial<JobRunnerOptions> = {}): JobRunner {
  const runner = createJobRunner<T>(table, Q, handler, { concurrency: 1, idlePollMs: 50, ...options });
  runners.push(runner);
  runner.start();
  return runner;
}

afterEach(async () => {
  for (const runner of runners.splice(0)) await runner.close(true);
  for (const db of dbs.splice(0)) if (db.open) db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const row = (db: SqliteDatabase, id: string) =>
  db
    .prepare("SELECT state, attempts, error, run_at AS runAt FROM queue_jobs WHERE queue = ? AND id = ?")
    .get(Q, id) as { state: string; attempts: number; error: string | null; runAt: number } | undefined;

/** What better-sqlite3 throws when the disk is full. */
const diskFull = () => Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });

/** One job per id, with empty data, due now. */
const addJobs = (table: JobTable, ...ids: string[]) =>
  table.add(
    Q,
    ids.map((id) => ({ id, data: {} })),
    Date.now(),
  );

/** How many times the job `id` ran. */
const runsOf = (runs: readonly string[], id: string) => runs.filter((ran) => ran === id).length;

/** ms between consecutive runs. */
const gaps = (times: readonly number[]) => times.slice(1).map((time, i) => time - (times[i] as number));

describe("embedded job runner", () => {
  it("never runs more jobs at once than its concurrency, and runs them all", async () => {
    const { table } = open(tempDir());
    table.add(
      Q,
      Array.from({ length: 12 }, (_, i) => ({ id: `j${i}`, data: i })),
      Date.now(),
    );
    let inFlight = 0;
    let most = 0;
    const done: number[] = [];
    const runner = run<number>(
      table,
      async (job) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await sleep(20);
        inFlight -= 1;
        done.push(job.data);
      },
      { concurrency: 3 },
    );
    await eventually(() => done.length === 12);
    expect(most).toBe(3);
    expect(done.sort((a, b) => a - b)).toEqual([...Array(12).keys()]);
    expect(runner.running()).toBe(0);
    expect(table.state(Q, "j0")).toBe("missing");
  });

  it("retries a job that throws with doubling backoff up to maxAttempts, then keeps it failed", async () => {
    const { db, table } = open(tempDir());
    const start = Date.now();
    table.add(Q, [{ id: "flaky", data: {}, maxAttempts: 3, backoffMs: 100 }], start);
    const runs: number[] = [];
    const errors: { message: string; final: boolean | undefined }[] = [];
    run(
      table,
      async () => {
        runs.push(Date.now() - start);
        throw new Error(`boom ${runs.length}`);
      },
      {
        keep: { failedMs: 60_000 },
        onError: (error, job) => errors.push({ message: (error as Error).message, final: job?.final }),
      },
    );
    await eventually(() => errors.length === 3);
    await sleep(400);
    expect(runs.length).toBe(3);
    // Second run 100 ms after the first, third 200 ms after the second.
    expect(gaps(runs).map((gap, i) => gap >= (i === 0 ? 95 : 195))).toEqual([true, true]);
    expect(errors).toEqual([
      { message: "boom 1", final: false },
      { message: "boom 2", final: false },
      { message: "boom 3", final: true },
    ]);
    expect(row(db, "flaky")).toMatchObject({ state: "failed", error: "boom 3" });
    expect(table.state(Q, "flaky")).toBe("ended");
    expect(table.counts(Q, Date.now())).toMatchObject({ waiting: 0, delayed: 0, failed: 1 });
  });

  it("fails a job that gives up at once, whatever attempts remain", async () => {
    const { db, table } = open(tempDir());
    table.add(Q, [{ id: "bad", data: {}, maxAttempts: 5, backoffMs: 10 }], Date.now());
    let runs = 0;
    const finals: boolean[] = [];
    run(
      table,
      async () => {
        runs += 1;
        return giveUp(new SharpsharpError("SS_TEST_GIVEN_UP", "never"));
      },
      { keep: { failedMs: 60_000 }, onError: (_error, job) => finals.push(job?.final ?? false) },
    );
    await eventually(() => finals.length === 1);
    await sleep(150);
    expect(runs).toBe(1);
    expect(finals).toEqual([true]);
    expect(row(db, "bad")).toMatchObject({ state: "failed", error: "never", attempts: 0 });
  });

  it("deletes an ended job at once when nothing is kept", async () => {
    const { table } = open(tempDir());
    table.add(
      Q,
      [
        { id: "ok", data: {} },
        { id: "ko", data: {} },
      ],
      Date.now(),
    );
    const seen: string[] = [];
    run(table, async (job) => {
      seen.push(job.id as string);
      if (job.id === "ko") throw new Error("no");
    });
    await eventually(() => seen.length === 2);
    await eventually(() => table.state(Q, "ko") === "missing" && table.state(Q, "ok") === "missing");
    expect(table.add(Q, [{ id: "ok", data: {} }], Date.now())).toEqual([true]);
  });

  it("runs a job retried later again at that time, without spending an attempt", async () => {
    const { db, table } = open(tempDir());
    table.add(Q, [{ id: "wait", data: { waits: 0 }, maxAttempts: 1 }], Date.now());
    const runs: number[] = [];
    const errors: unknown[] = [];
    run<{ waits: number }>(
      table,
      async (job) => {
        runs.push(Date.now());
        if (job.data.waits < 2) {
          await job.updateData({ waits: job.data.waits + 1 });
          // Between the two runs the job is delayed, not waiting, and attempts are untouched.
          return retryAt(Date.now() + 150);
        }
        return undefined;
      },
      { keep: { completedMs: 60_000 }, onError: (error) => errors.push(error) },
    );
    await eventually(() => runs.length === 1);
    await eventually(() => (row(db, "wait")?.runAt ?? 0) > (runs[0] ?? Number.POSITIVE_INFINITY));
    expect(table.counts(Q, Date.now())).toMatchObject({ waiting: 0, delayed: 1 });
    await eventually(() => row(db, "wait")?.state === "completed");
    expect(runs.length).toBe(3);
    expect(gaps(runs).map((gap) => gap >= 145)).toEqual([true, true]);
    // maxAttempts 1 and two delays: a delay is not a failure.
    expect(errors).toEqual([]);
    expect(row(db, "wait")).toMatchObject({ state: "completed", attempts: 0 });
  });

  it("keeps updateData across a crash: a job that was running runs again on the reopened file, with its new data", async () => {
    const dir = tempDir();
    const first = open(dir);
    first.table.add(Q, [{ id: "send", data: { step: "new" }, maxAttempts: 1 }], Date.now());
    let entered = false;
    const crashing = run<{ step: string }>(first.table, async (job) => {
      await job.updateData({ step: "sent" });
      entered = true;
      await new Promise(() => {}); // hangs: the process "dies" here
    });
    await eventually(() => entered);
    await crashing.close(true);
    first.db.close();

    const second = open(dir);
    const seen: string[] = [];
    run<{ step: string }>(second.table, async (job) => {
      seen.push(job.data.step);
    });
    await eventually(() => seen.length === 1);
    expect(seen).toEqual(["sent"]);
    await eventually(() => second.table.state(Q, "send") === "missing");
  });

  it("runs a keyed job scheduled while it runs once more after it completes, and only once", async () => {
    const { table } = open(tempDir());
    let release: () => void = () => {};
    let runs = 0;
    const runner = run(table, async () => {
      runs += 1;
      if (runs === 1) await new Promise<void>((resolve) => (release = resolve));
    });
    table.schedule(Q, { id: "conv", data: {} }, runner.active.has("conv"), Date.now());
    runner.notify();
    await eventually(() => runs === 1);
    expect(runner.active.has("conv")).toBe(true);
    // Three more messages arrive while the turn runs.
    for (let i = 0; i < 3; i++)
      table.schedule(Q, { id: "conv", data: {} }, runner.active.has("conv"), Date.now());
    await sleep(120);
    expect(runs).toBe(1);
    release();
    await eventually(() => runs === 2);
    await eventually(() => table.state(Q, "conv") === "missing");
    await sleep(150);
    expect(runs).toBe(2);
  });

  it("runs a keyed job scheduled while it runs once more even when that run fails for good", async () => {
    const { table } = open(tempDir());
    let release: () => void = () => {};
    let runs = 0;
    const runner = run(table, async () => {
      runs += 1;
      if (runs === 1) {
        await new Promise<void>((resolve) => (release = resolve));
        return giveUp(new SharpsharpError("SS_TEST_GIVEN_UP", "first run broke"));
      }
      return undefined;
    });
    table.schedule(Q, { id: "conv", data: {}, maxAttempts: 1 }, false, Date.now());
    runner.notify();
    await eventually(() => runs === 1);
    // New work arrived during the run: it must not wait for a sweep because the run failed.
    table.schedule(Q, { id: "conv", data: {}, maxAttempts: 1 }, runner.active.has("conv"), Date.now());
    release();
    await eventually(() => runs === 2, 1000);
    await eventually(() => table.state(Q, "conv") === "missing");
  });

  it("refuses a second add of a kept completed id until the sweep deletes it", async () => {
    const { table } = open(tempDir());
    table.add(Q, [{ id: "once", data: 1 }], Date.now());
    const seen: number[] = [];
    run<number>(table, async (job) => void seen.push(job.data), { keep: { completedMs: 200 } });
    await eventually(() => seen.length === 1 && table.state(Q, "once") === "ended");
    expect(table.add(Q, [{ id: "once", data: 2 }], Date.now())).toEqual([false]);
    expect(table.sweep(Date.now())).toBe(0);
    expect(table.add(Q, [{ id: "once", data: 3 }], Date.now())).toEqual([false]);
    expect(table.sweep(Date.now() + 250)).toBe(1);
    expect(table.add(Q, [{ id: "once", data: 4 }], Date.now())).toEqual([true]);
    await eventually(() => seen.length === 2);
    expect(seen).toEqual([1, 4]);
  });

  it("does not count a running job as waiting, nor treat it as next due: one long job is not run again", async () => {
    const { table } = open(tempDir());
    table.add(Q, [{ id: "long", data: {} }], Date.now());
    table.add(Q, [{ id: "later", data: {}, runAt: Date.now() + 60_000 }], Date.now());
    let calls = 0;
    let looks = 0;
    // The same table, counting how often the runner looks for due jobs.
    const counted: JobTable = {
      ...table,
      due: (...args) => {
        looks += 1;
        return table.due(...args);
      },
    };
    let release: () => void = () => {};
    const runner = run(
      counted,
      async () => {
        calls += 1;
        await new Promise<void>((resolve) => (release = resolve));
      },
      { concurrency: 4, idlePollMs: 100 },
    );
    await eventually(() => calls === 1);
    const looksBefore = looks;
    await sleep(300);
    // It sleeps its idle poll (100 ms) between looks, not 1 ms: no busy loop on the running job.
    expect(looks - looksBefore).toBeLessThanOrEqual(5);
    expect(calls).toBe(1);
    expect(table.nextDueAt(Q, runner.active)).toBeGreaterThan(Date.now() + 50_000);
    expect(table.due(Q, Date.now(), 4, runner.active)).toEqual([]);
    expect(table.counts(Q, Date.now(), runner.active)).toMatchObject({ waiting: 0, active: 1, delayed: 1 });
    release();
    await eventually(() => table.state(Q, "long") === "missing");
    expect(table.counts(Q, Date.now(), runner.active)).toMatchObject({ waiting: 0, active: 0, delayed: 1 });
    expect(calls).toBe(1);
  });
});

describe("embedded job table's due jobs", () => {
  it("walks the priority index and stops at the limit: a backlog is not read and sorted per started job", () => {
    const { db, table } = open(tempDir());
    const at = Date.now();
    // A backlog as a flooding tenant leaves it: every turn due, each with its own priority.
    const backlog = Array.from({ length: 3000 }, (_, i) => ({
      id: `c${i}`,
      data: {},
      runAt: at - i,
      priority: 3000 - i,
    }));
    table.add(Q, backlog, at);
    // Rank first but are not due yet: skipped.
    table.add(Q, [{ id: "later", data: {}, runAt: at + 60_000, priority: 1 }], at);
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${DUE_JOBS_SQL}`).all(Q, at, 4) as { detail: string }[])
      .map((row) => row.detail)
      .join("; ");
    expect(plan).toContain("queue_jobs_due");
    expect(plan).not.toContain("TEMP B-TREE");
    expect(table.due(Q, at, 3, new Set(["c2999"])).map((row) => row.id)).toEqual(["c2998", "c2997", "c2996"]);
  });
});

describe("embedded job runner when its table cannot be written", () => {
  it("holds a job back when its end was written but could not be committed (a full disk at the batch's commit)", async () => {
    const { table } = open(tempDir());
    table.add(Q, [{ id: "stuck", data: {} }], Date.now());
    const runs: number[] = [];
    run(
      table,
      async () => {
        runs.push(Date.now());
      },
      {
        writeFailureBackoffMs: 100,
        // The completion is written, then its commit fails: the row is still waiting, as after a rollback.
        written: async () => {
          table.add(Q, [{ id: "stuck", data: {} }], Date.now());
          throw diskFull();
        },
      },
    );
    await sleep(650);
    expect(runs.length).toBeGreaterThanOrEqual(2);
    expect(runs.length).toBeLessThanOrEqual(4);
    expect(gaps(runs).every((gap) => gap >= 90)).toBe(true);
  });

  it("runs a held-back job again with the data its last run left, not what the failed commit took back", async () => {
    const { db, table } = open(tempDir());
    table.add(Q, [{ id: "reply", data: {} }], Date.now());
    const sends: string[] = [];
    const seen: { sentWamid?: string }[] = [];
    let failedCommits = 0;
    run<{ sentWamid?: string }>(
      table,
      async (job) => {
        seen.push({ ...job.data });
        // The sender's way: a reply marked sent is not sent again.
        if (job.data.sentWamid !== undefined) return;
        sends.push("wamid.1");
        await job.updateData({ sentWamid: "wamid.1" }).catch(() => {});
      },
      {
        writeFailureBackoffMs: 50,
        // The first commit after the send fails (a full disk) and takes the mark and the completion with it.
        written: async () => {
          if (failedCommits > 0) return;
          failedCommits += 1;
          table.add(Q, [{ id: "reply", data: {} }], Date.now());
          throw diskFull();
        },
      },
    );
    await eventually(() => row(db, "reply") === undefined, 5_000, 10);
    expect(sends).toEqual(["wamid.1"]);
    expect(seen).toEqual([{}, { sentWamid: "wamid.1" }]);
  });

  it("spends no attempt on a run that failed while a commit failed: a one-attempt job runs again and completes", async () => {
    const { db, table } = open(tempDir());
    table.add(Q, [{ id: "reply", data: {} }], Date.now());
    let commitFailures = 0;
    let runs = 0;
    run(
      table,
      async () => {
        runs += 1;
        // The first two runs fail with a batch commit that failed under them (a full disk).
        if (runs <= 2) {
          commitFailures += 1;
          throw new Error("the batch of writes was rolled back by SQLite after an error");
        }
      },
      {
        writeFailureBackoffMs: 20,
        keep: { completedMs: 60_000, failedMs: 60_000 },
        commitFailures: () => commitFailures,
      },
    );
    await eventually(() => row(db, "reply")?.state === "completed", 5_000, 10);
    expect(runs).toBe(3);
    expect(row(db, "reply")?.attempts).toBe(0);
  });

  it("spends no attempt on a run that threw a write the disk refused, however the handler wrapped it", async () => {
    const { db, table } = open(tempDir());
    addJobs(table, "full", "own");
    const runs: string[] = [];
    run(
      table,
      async (job) => {
        runs.push(String(job.id));
        if (job.id === "own") throw new Error("the handler's own failure");
        if (runsOf(runs, "full") === 1) {
          const full = diskFull();
          throw new Error("could not journal the step", { cause: new Error("store", { cause: full }) });
        }
      },
      { writeFailureBackoffMs: 20, keep: { completedMs: 60_000, failedMs: 60_000 } },
    );
    await eventually(() => row(db, "full")?.state === "completed", 5_000, 10);
    expect(runsOf(runs, "full")).toBe(2);
    // A failure of the handler's own still spends the job's only attempt.
    expect(row(db, "own")).toMatchObject({ state: "failed", error: "the handler's own failure" });
    expect(runsOf(runs, "own")).toBe(1);
  });

  it("holds back only what heldBackOn names, when given: a raw SQLITE_FULL then ends a one-attempt job", async () => {
    const { db, table } = open(tempDir());
    addJobs(table, "raw", "typed");
    const runs: string[] = [];
    run(
      table,
      async (job) => {
        runs.push(String(job.id));
        if (runsOf(runs, String(job.id)) > 1) return;
        if (job.id === "raw") throw diskFull();
        throw new QueueUnavailableError("a job's data could not be written (a full disk?)");
      },
      {
        writeFailureBackoffMs: 20,
        keep: { completedMs: 60_000, failedMs: 60_000 },
        heldBackOn: (error) => error instanceof QueueUnavailableError,
      },
    );
    await eventually(() => row(db, "typed")?.state === "completed", 5_000, 10);
    expect(row(db, "raw")).toMatchObject({ state: "failed", error: "database or disk is full" });
    expect(runsOf(runs, "raw")).toBe(1);
  });

  it("runs a held-back job with the data its run wrote even when that write itself was refused", async () => {
    const { table } = open(tempDir());
    table.add(Q, [{ id: "mark", data: { step: 0 } }], Date.now());
    // The statement itself fails (a full disk), not only the commit after it; then there is room again.
    let refused = 0;
    const refusing: JobTable = {
      ...table,
      updateData: (...args) => {
        if (refused === 0) {
          refused += 1;
          throw diskFull();
        }
        table.updateData(...args);
      },
    };
    const seen: unknown[] = [];
    const refusals: unknown[] = [];
    run<{ step: number }>(
      refusing,
      async (job) => {
        seen.push(job.data);
        if (job.data.step === 0) await job.updateData({ step: 1 }).catch((error) => refusals.push(error));
        if (seen.length === 1) throw diskFull();
      },
      { writeFailureBackoffMs: 20 },
    );
    await eventually(() => seen.length === 2, 5_000, 10);
    expect(seen).toEqual([{ step: 0 }, { step: 1 }]);
    // Typed, so the sender can tell "not kept, and it runs again" from a failure of its own.
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toBeInstanceOf(QueueUnavailableError);
  });

  it("fails a job whose data cannot be written at all, instead of holding it back for ever", async () => {
    const { db, table } = open(tempDir());
    table.add(Q, [{ id: "cyclic", data: {} }], Date.now());
    const refusals: unknown[] = [];
    let runs = 0;
    run<Record<string, unknown>>(
      table,
      async (job) => {
        runs += 1;
        const cyclic: Record<string, unknown> = {};
        cyclic.self = cyclic;
        await job.updateData(cyclic).catch((error) => {
          refusals.push(error);
          throw error;
        });
      },
      { writeFailureBackoffMs: 20 },
    );
    // Ended (a failed job with no keep is removed), where a held-back one would wait and run every 20-40 ms.
    await eventually(() => row(db, "cyclic") === undefined, 5_000, 10);
    await sleep(200);
    // The run's own failure (a programming error), not the disk's: it ends like any other.
    expect(refusals[0]).not.toBeInstanceOf(QueueUnavailableError);
    expect(runs).toBe(1);
  });

  it("holds a job back with a growing backoff instead of running it again at once (a full disk)", async () => {
    const { table } = open(tempDir());
    table.add(Q, [{ id: "stuck", data: {} }], Date.now());
    // The handler fails, and so does recording the failure: what a full disk does to both.
    const broken: JobTable = {
      ...table,
      fail: () => {
        throw diskFull();
      },
    };
    const runs: number[] = [];
    run(
      broken,
      async () => {
        runs.push(Date.now());
        throw new Error("turn failed");
      },
      { writeFailureBackoffMs: 100 },
    );
    await sleep(650);
    // 0 ms, then +100, +200 (+400 lands after the window): a handful of runs, never a spin.
    expect(runs.length).toBeGreaterThanOrEqual(2);
    expect(runs.length).toBeLessThanOrEqual(4);
    expect(gaps(runs).every((gap) => gap >= 90)).toBe(true);
  });
});
