import type { JobTable, KeepOptions } from "../../queue/embedded/index.js";
import { type OutboundJob, QUEUE_NAMES } from "../../queue/index.js";
import { outboundJobId } from "../outbound-job-id.js";
import { assignSendOrder, checkOutboundReply } from "../outbound-sequence.js";
import type { OutboundQueue, SendOrder } from "../ports.js";

/** Ended outbound jobs stay this long; while kept, their id refuses a second copy (as in Redis mode). */
export const OUTBOUND_KEEP: Required<KeepOptions> = {
  completedMs: 86_400_000,
  failedMs: 7 * 86_400_000,
};

export interface EmbeddedOutboundQueueOptions {
  readonly jobs: JobTable;
  readonly order: SendOrder;
  /** Called after jobs were added, so the sender looks now. */
  readonly added?: () => void;
  readonly now?: () => number;
}

/**
 * The embedded adapter of OutboundQueue, on the job table: one job per reply
 * part under the same id as in Redis mode (tenant, turn, part), so a retried
 * turn queues nothing twice while the ended job is kept; each part takes its
 * place in its conversation's send order first.
 */
export function createEmbeddedOutboundQueue(options: EmbeddedOutboundQueueOptions): OutboundQueue {
  const now = options.now ?? Date.now;
  return {
    async enqueue(replies) {
      for (const reply of replies) checkOutboundReply(reply);
      if (replies.length === 0) return;
      // A crash between the two steps leaves a place with no job: the sender skips it (send-order-gate.ts).
      const ids = replies.map(outboundJobId);
      const seqs = await assignSendOrder(options.order, replies, ids);
      const at = now();
      options.jobs.add(
        QUEUE_NAMES.outbound,
        replies.map((reply, i) => ({
          id: ids[i] as string,
          data: { ...reply, seq: seqs[i] as number } satisfies OutboundJob,
        })),
        at,
      );
      options.added?.();
    },
  };
}
