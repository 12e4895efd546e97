import type { Queue } from "bullmq";

/** The states counted per queue. */
export const SAMPLED_STATES = ["waiting", "active", "delayed", "prioritized", "failed"] as const;

/** Depth of one queue: counts per state and the oldest waiting job's creation time (ms since the epoch). */
export interface JobQueueDepth {
  readonly queue: string;
  readonly counts: Readonly<Record<string, number>>;
  readonly oldestWaitingAt: number | undefined;
}

/** A queue that is not BullMQ's (the events stream) and samples itself. */
export interface SampledQueue {
  sampleDepth(): Promise<JobQueueDepth>;
}

/**
 * Samples queues at bounded cost: for BullMQ, one getJobCounts (a few
 * LLEN/ZCARD) and one read of the oldest waiting job (the tail of the wait
 * list) per queue, whatever the backlog; other queues sample themselves.
 */
export function sampleJobQueues(queues: readonly (Queue | SampledQueue)[]): Promise<JobQueueDepth[]> {
  return Promise.all(
    queues.map(async (queue) => {
      if ("sampleDepth" in queue) return queue.sampleDepth();
      const [counts, oldest] = await Promise.all([
        queue.getJobCounts(...SAMPLED_STATES),
        // asc: the wait list's far end, where the next job is taken from.
        queue.getJobs(["wait"], 0, 0, true),
      ]);
      return { queue: queue.name, counts, oldestWaitingAt: oldest[0]?.timestamp };
    }),
  );
}
