import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/** Moves the WAL into the database file from another thread, so the event loop never waits on it. */
export interface Checkpointer {
  stop(): void;
}

/**
 * A WAL of this many frames (about 256 MiB at 1 KiB pages) has not started over since the last lull:
 * the thread checkpoints again at once, pass after pass, until one is short enough to see no commit.
 * Not lower: catching up every 8 MiB cost 7% more CPU at 100 messages/s (bench/RESULTS.md).
 */
export const CATCH_UP_FRAMES = 262_144;

/**
 * How much lower than the process the checkpoint thread is scheduled (nice steps), as the media
 * thread is: copying the WAL is background work, and at +10 it yields a core to the event loop
 * when both want one. At 400 messages/s on two cores, over eight alternating pairs, p99 after the
 * start-up seconds fell from a median of 142 to 90 ms (lower in six pairs) and p50 was lower in seven;
 * the WAL ran longer (−7% to +79%) and CPU a message rose about 2% (bench/RESULTS.md).
 */
export const CHECKPOINT_THREAD_NICE_STEPS = 10;

// Plain CommonJS run by the worker thread: its own connection, a PASSIVE checkpoint on a timer.
// Linux keeps a nice value per thread, so setpriority on "0" lowers this thread only; elsewhere it
// would lower the whole process, so there it is not done.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
if (process.platform === "linux" && workerData.niceSteps > 0) {
  const os = require("node:os");
  try {
    os.setPriority(0, Math.min(19, os.getPriority(0) + workerData.niceSteps));
  } catch {
    // A sandbox without setpriority: the thread still works, it only competes as an equal.
  }
}
const Database = require(workerData.modulePath);
const db = new Database(workerData.path, { timeout: 5000 });
let timer;
const checkpoint = () => {
  let wait = workerData.intervalMs;
  try {
    const [pass] = db.pragma("wal_checkpoint(PASSIVE)");
    // The WAL starts over only when a write begins with every frame copied. Under steady writes a pass
    // a second apart always finds new frames, and the file grew by gigabytes in a 5-minute benchmark.
    if (pass && pass.log >= workerData.catchUpFrames) wait = 0;
  } catch (error) {
    parentPort.postMessage(String(error && error.message));
  }
  timer = setTimeout(checkpoint, wait);
};
timer = setTimeout(checkpoint, workerData.intervalMs);
parentPort.on("message", () => {
  clearTimeout(timer);
  db.close();
  Atomics.store(workerData.closed, 0, 1);
  Atomics.notify(workerData.closed, 0);
  parentPort.close();
});
`;

/**
 * SQLite's automatic checkpoint runs inside a commit, on the committing
 * thread: copying the WAL into the database and syncing both stalled the
 * event loop for up to seconds on a slow disk (bench/RESULTS.md). The main
 * connection turns it off and this worker thread does it every `intervalMs`,
 * PASSIVE, so it never blocks a writer, scheduled below the event loop
 * (CHECKPOINT_THREAD_NICE_STEPS). (The commit that restarts a fully
 * checkpointed WAL still syncs its header on the committing thread: one
 * small sync per checkpoint, not the copy.)
 */
export function startCheckpointer(
  path: string,
  options: {
    readonly intervalMs: number;
    /** WAL frames past which passes run back to back until it starts over; default CATCH_UP_FRAMES. */
    readonly catchUpFrames?: number;
    readonly onError: (message: string) => void;
    /** The thread ended without being stopped (it failed to open, or crashed). */
    readonly onExit: () => void;
  },
): Checkpointer {
  const modulePath = createRequire(import.meta.url).resolve("better-sqlite3");
  const closed = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      path,
      modulePath,
      intervalMs: options.intervalMs,
      catchUpFrames: options.catchUpFrames ?? CATCH_UP_FRAMES,
      niceSteps: CHECKPOINT_THREAD_NICE_STEPS,
      closed,
    },
  });
  let running = true;
  let stopping = false;
  worker.on("message", (message: string) => options.onError(message));
  worker.on("error", (error) => options.onError(error.message));
  worker.on("exit", () => {
    running = false;
    if (!stopping) options.onExit();
  });
  worker.unref();
  return {
    /** Closes the thread's connection before returning (at most 2 s), so the caller's close is the last one. */
    stop() {
      stopping = true;
      if (!running) return;
      worker.postMessage("stop");
      Atomics.wait(closed, 0, 0, 2000);
    },
  };
}
