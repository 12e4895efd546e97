import type { DeliveryStatusStore } from "../../delivery/index.js";
import type { SentMessage } from "../../outbound/index.js";
import type { MessageStore } from "../ports.js";
import type { BestEffort } from "./best-effort.js";
import { recordingSentMessages } from "./record-outbound.js";

/**
 * Applies each status, then copies it to the message log, best effort: the
 * events worker's outcome is the delegate's. The store keeps its own
 * forward-only rule, so a stale or repeated status changes nothing there
 * either. `recordSent` fills in the wamid as `recordingSentMessages` does,
 * so one wrapped store serves both the sender and the events worker.
 */
export function recordingDeliveryStatuses(
  inner: DeliveryStatusStore,
  store: MessageStore,
  bestEffort: BestEffort,
  recordSent: (message: SentMessage) => Promise<void>,
): DeliveryStatusStore {
  const sent = recordingSentMessages(inner, recordSent);
  return {
    async applyStatus(update) {
      const outcome = await inner.applyStatus(update);
      await bestEffort(`a "${update.status}" status`, { wamid: update.wamid }, () =>
        store.updateDelivery(
          update.tenantId,
          update.wamid,
          update.status,
          update.timestamp * 1000,
          update.error,
        ),
      );
      return outcome;
    },
    get: (tenantId, wamid) => inner.get(tenantId, wamid),
    recordSent: (message) => sent.recordSent(message),
  };
}
