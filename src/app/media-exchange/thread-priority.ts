import { getPriority, setPriority } from "node:os";

/**
 * How much lower than the process the media thread is scheduled (nice steps). At +10 the kernel
 * gives it about a tenth of the weight of the event loop's thread when both want a core, so waking
 * from an HTTP answer it does not preempt a running turn.
 */
export const MEDIA_THREAD_NICE_STEPS = 10;

/** Linux's lowest priority (highest nice value). */
const LOWEST = 19;

/**
 * Lowers the scheduling priority of the calling thread by `steps`, and answers its nice value
 * afterwards, or undefined when it was left alone. Linux keeps a nice value per thread, so
 * setpriority on "0" from a worker thread changes that thread only; other systems would lower the
 * whole process, the event loop with it, so there it is not done. A refusal (a sandbox without
 * setpriority) leaves the thread as it was: it still works, it only competes as an equal.
 */
export function lowerThreadPriority(steps: number): number | undefined {
  if (process.platform !== "linux") return undefined;
  try {
    const nice = Math.min(LOWEST, getPriority(0) + steps);
    setPriority(0, nice);
    return nice;
  } catch {
    return undefined;
  }
}
