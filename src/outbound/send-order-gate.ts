import type { OutboundJob } from "../queue/index.js";
import type { SendOrder } from "./ports.js";

/** Where a job of the outbound queue stands, as far as the order needs to know. */
export type OutboundJobState = "pending" | "ended" | "missing";

/** What the gate needs. */
export interface SendOrderGateDeps {
  readonly order: SendOrder;
  /** "pending": waiting, delayed or active; "ended": completed or failed; "missing": no such job. */
  readonly jobState: (jobId: string) => Promise<OutboundJobState>;
  /** Hands a job held back for its turn to a worker now (best effort; a job not held back stays as is). */
  readonly wake: (jobId: string) => Promise<void>;
}

/** What the gate answers for one reply. */
export type SendOrderVerdict = "go" | "hold";

type Ordered = Pick<OutboundJob, "tenantId" | "conversationKey" | "seq">;

// Bounds the skipping of ended places per check; a longer run waits for the next check.
const MAX_SKIPS = 16;

/**
 * Keeps one conversation's sends in the order their replies were queued,
 * across every worker process: a reply goes when every earlier place of its
 * conversation is sent or given up (`finish`). A place whose job ended
 * without finishing it (a crash between enqueue steps, a job removed, a
 * failure the sender never saw) is skipped, so nothing waits on it forever.
 */
export function createSendOrderGate(deps: SendOrderGateDeps) {
  return {
    /** "go" when no earlier reply of the conversation is still to send; replies without `seq` always go. */
    async check(data: Ordered, ownJobId: string | undefined): Promise<SendOrderVerdict> {
      if (data.seq === undefined) return "go";
      for (let skips = 0; skips < MAX_SKIPS; skips += 1) {
        const cursor = await deps.order.peek(data.tenantId, data.conversationKey);
        if (data.seq <= cursor.next) return "go";
        const state =
          cursor.jobId === undefined || cursor.jobId === ownJobId
            ? "missing"
            : await deps.jobState(cursor.jobId);
        if (state === "pending") return "hold";
        await deps.order.finish(data.tenantId, data.conversationKey, cursor.next);
      }
      return "hold";
    },
    /** Marks the reply's place sent or given up and wakes the reply next in line. */
    async finish(data: Ordered): Promise<void> {
      if (data.seq === undefined) return;
      const cursor = await deps.order.finish(data.tenantId, data.conversationKey, data.seq);
      if (cursor.jobId !== undefined) await deps.wake(cursor.jobId);
    },
  };
}

export type SendOrderGate = ReturnType<typeof createSendOrderGate>;
