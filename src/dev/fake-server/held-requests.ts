/** Requests the fake is holding without an answer (the `hang` faults). */
export interface HeldRequests {
  /** Waits until release() (true) or until `signal` aborts (false). */
  hold(signal: AbortSignal): Promise<boolean>;
  /** Lets every held request go on to be answered. */
  release(): void;
  size(): number;
}

/**
 * Held requests are awaited promises, not hijacked sockets, so a request
 * let go when the hang is lifted is then answered normally.
 */
export function createHeldRequests(): HeldRequests {
  const waiting = new Set<(released: boolean) => void>();
  return {
    hold(signal) {
      if (signal.aborted) return Promise.resolve(false);
      return new Promise<boolean>((resolve) => {
        const finish = (released: boolean) => {
          waiting.delete(finish);
          signal.removeEventListener("abort", onAbort);
          resolve(released);
        };
        const onAbort = () => finish(false);
        waiting.add(finish);
        signal.addEventListener("abort", onAbort, { once: true });
      });
    },
    release() {
      for (const finish of [...waiting]) finish(true);
    },
    size: () => waiting.size,
  };
}
