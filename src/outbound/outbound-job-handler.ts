import { type JobOutcome, type OutboundJob, type QueueJob, QueueUnavailableError } from "../queue/index.js";
import type { SendOrderGate } from "./send-order-gate.js";
import { createSendReply, type SendReplyDeps } from "./send-reply.js";

/**
 * One run of an outbound job, for either queue backend: sends the reply part
 * (see send-reply.ts), and once it is sent, given up or failed for good,
 * advances its conversation's send order so the next reply may go. A run
 * the queue will run again (its write refused: QueueUnavailableError) does
 * not advance it.
 */
export function createOutboundJobHandler(deps: SendReplyDeps & { readonly order: SendOrderGate }) {
  const sendReply = createSendReply(deps);
  return async function runOutboundJob(job: QueueJob<OutboundJob>): Promise<JobOutcome> {
    const finish = () =>
      deps.order
        .finish(job.data)
        .catch((error: unknown) =>
          deps.logger.warn({ err: error, job: job.id }, "could not advance the send order"),
        );
    // A sent reply advances the order once marked sent, alongside its delivery record; any other end after.
    let finished = false;
    const finishOnce = () => {
      finished = true;
      return finish();
    };
    let outcome: JobOutcome;
    try {
      outcome = await sendReply(job, finishOnce);
    } catch (error) {
      // The queue refused a write before the send (a full disk): the job runs again, so the later replies
      // must wait for it. Any other failure ends the job (one attempt), and they go on.
      if (!finished && !(error instanceof QueueUnavailableError)) await finish();
      throw error;
    }
    if (outcome.kind !== "retry" && !finished) await finish();
    return outcome;
  };
}
