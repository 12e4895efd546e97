import type { StatusEvent } from "../whatsapp/index.js";
import type { StatusUpdate } from "./ports.js";
import { isDeliveryStatus } from "./status-rank.js";

function firstError(errors: readonly unknown[] | undefined): StatusUpdate["error"] {
  const first = errors?.[0];
  if (typeof first !== "object" || first === null) return undefined;
  const { code, title } = first as { code?: unknown; title?: unknown };
  const numeric = typeof code === "number" ? code : typeof code === "string" ? Number(code) : Number.NaN;
  if (!Number.isInteger(numeric)) return undefined;
  return { code: numeric, title: typeof title === "string" ? title : "" };
}

/** A status webhook event as a store update; undefined for a status Meta added that we do not model. */
export function statusUpdateOf(event: StatusEvent): StatusUpdate | undefined {
  if (!isDeliveryStatus(event.status)) return undefined;
  const recipient = event.recipient.waId ?? event.recipient.userId;
  const error = event.status === "failed" ? firstError(event.errors) : undefined;
  return {
    tenantId: event.tenantId,
    wamid: event.wamid,
    status: event.status,
    timestamp: event.timestamp,
    ...(recipient === undefined ? {} : { recipient }),
    ...(error === undefined ? {} : { error }),
  };
}
