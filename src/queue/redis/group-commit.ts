interface Pending<I, O> {
  readonly item: I;
  readonly deadline: number;
  readonly resolve: (output: O) => void;
  readonly reject: (error: unknown) => void;
}

export interface GroupCommitOptions<I> {
  /** Upper bound of the summed weights in one flush (an item heavier than this goes alone). */
  readonly maxWeight: number;
  readonly weight: (item: I) => number;
  /** Clock for deadlines, ms. */
  readonly now: () => number;
  /** Error for an item whose deadline passed before its group was flushed. */
  readonly expired: () => Error;
  /**
   * Flushes allowed in flight at once. One keeps Redis and Node taking turns
   * (each idle while the other works); a few overlap them.
   */
  readonly maxInFlight?: number;
  /**
   * "io-phase": an item that could be flushed at once waits instead until the
   * I/O callbacks of this turn of the event loop have run (setImmediate), so the
   * webhooks Node read in one poll share one flush and one socket write. Costs
   * the rest of the poll phase in latency. "none" (default): flush at once.
   */
  readonly gather?: "none" | "io-phase";
}

export interface GroupCommitter<I, O> {
  /** Resolves with the item's output once its group is flushed; items past `deadline` are never flushed. */
  submit(item: I, deadline: number): Promise<O>;
}

/**
 * Group commit: while `maxInFlight` flushes are in flight, new items wait
 * and then go together in the next flush. An idle committer flushes at once (no added
 * latency); under load, one round trip carries many requests, which is
 * where an ingress spends its time (socket I/O per Redis command).
 */
export function createGroupCommitter<I, O>(
  flush: (items: readonly I[]) => Promise<readonly O[]>,
  options: GroupCommitOptions<I>,
): GroupCommitter<I, O> {
  const waiting: Pending<I, O>[] = [];
  const maxInFlight = options.maxInFlight ?? 1;
  let inFlight = 0;
  let gatherScheduled = false;

  const takeGroup = (): Pending<I, O>[] => {
    const group: Pending<I, O>[] = [];
    let weight = 0;
    const now = options.now();
    while (waiting.length > 0) {
      const next = waiting[0] as Pending<I, O>;
      if (next.deadline < now) {
        waiting.shift();
        next.reject(options.expired());
        continue;
      }
      const w = options.weight(next.item);
      if (group.length > 0 && weight + w > options.maxWeight) break;
      waiting.shift();
      group.push(next);
      weight += w;
    }
    return group;
  };

  const run = async (): Promise<void> => {
    inFlight += 1;
    try {
      for (let group = takeGroup(); group.length > 0; group = takeGroup()) {
        try {
          const outputs = await flush(group.map((pending) => pending.item));
          group.forEach((pending, index) => {
            pending.resolve(outputs[index] as O);
          });
        } catch (error) {
          for (const pending of group) pending.reject(error);
        }
      }
    } finally {
      inFlight -= 1;
    }
  };

  // Each run takes its group before the next starts, so a backlog heavier than one group fills the free slots.
  const startRuns = (): void => {
    gatherScheduled = false;
    while (inFlight < maxInFlight && waiting.length > 0) void run();
  };

  const gatherInIoPhase = options.gather === "io-phase";
  return {
    submit(item, deadline) {
      return new Promise<O>((resolve, reject) => {
        waiting.push({ item, deadline, resolve, reject });
        if (inFlight >= maxInFlight) return;
        if (!gatherInIoPhase) {
          void run();
        } else if (!gatherScheduled) {
          gatherScheduled = true;
          setImmediate(startRuns);
        }
      });
    },
  };
}
