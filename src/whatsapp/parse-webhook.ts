import { createHash } from "node:crypto";
import type { z } from "zod";
import { WebhookShapeError } from "./errors.js";
import type { ChangeEvent, ParsedWebhook, StatusEvent } from "./inbound-types.js";
import { normalizeMessage } from "./normalize-message.js";
import {
  contactSchema,
  messageBaseSchema,
  messagesValueSchema,
  statusSchema,
  webhookEnvelopeSchema,
} from "./webhook-schema.js";
import { jsonTextMayHoldIllFormed, wellFormedJson } from "./well-formed-text.js";

export interface ParseWebhookOptions {
  /** The tenant whose app secret verified the body. */
  readonly tenantId: string;
  /**
   * The tenant a business number's events belong to, when it is not the
   * verifying tenant (several tenants served by one Meta app); default: tenantId.
   */
  readonly tenantForPhoneNumber?: (phoneNumberId: string) => string;
  /**
   * Whether the tenant a number's events belong to lists that number; one it
   * does not list is recorded, never answered. Default: every number is listed.
   */
  readonly isListedNumber?: (phoneNumberId: string, tenantId: string) => boolean;
  /** Unix ms the request arrived. */
  readonly receivedAt: number;
  /**
   * The UTF-8-decoded text `raw` was parsed from, when the caller has it: if it escapes no NUL and no
   * surrogate, the walk that makes every string well-formed is skipped (it cannot change anything).
   */
  readonly sourceText?: string;
}

/** Meta's payloads nest about 8 levels; a body far deeper is not a webhook (and could not be re-serialised). */
const MAX_DEPTH = 64;

function nestedDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (node === null || typeof node !== "object") continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
    }
  }
  return false;
}

function contentHash(...parts: string[]): string {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(part).update("\u0000");
  return hash.digest("base64url").slice(0, 22);
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue === undefined ? "invalid" : `${issue.path.join(".") || "(top level)"}: ${issue.message}`;
}

function statusEvent(
  status: z.output<typeof statusSchema>,
  tenantId: string,
  phoneNumberId: string,
  receivedAt: number,
): StatusEvent {
  const event: Record<string, unknown> = {
    kind: "status",
    dedupeId: `${tenantId}:${status.id}:${status.status}`,
    tenantId,
    phoneNumberId,
    wamid: status.id,
    status: status.status,
    timestamp: Number(status.timestamp),
    receivedAt,
    recipient: {
      ...(status.recipient_id === undefined ? {} : { waId: status.recipient_id }),
      ...(status.recipient_user_id === undefined ? {} : { userId: status.recipient_user_id }),
    },
  };
  if (status.errors !== undefined) event.errors = status.errors;
  if (status.pricing !== undefined) event.pricing = status.pricing;
  if (status.conversation !== undefined) event.conversation = status.conversation;
  if (status.biz_opaque_callback_data !== undefined)
    event.bizOpaqueCallbackData = status.biz_opaque_callback_data;
  return event as unknown as StatusEvent;
}

/**
 * Walks every entry, change, message, status and `value.errors` of a webhook
 * body that has already passed the signature check and JSON.parse. Throws
 * WebhookShapeError when the body is not a WhatsApp envelope; a single bad
 * item inside a valid envelope is reported in `dropped` instead, so one odd
 * message never costs the others.
 */
export function parseWebhook(raw: unknown, options: ParseWebhookOptions): ParsedWebhook {
  if (nestedDeeperThan(raw, MAX_DEPTH)) throw new WebhookShapeError(`nested deeper than ${MAX_DEPTH} levels`);
  // Before anything is read from it: every message, event and log line downstream is well-formed text.
  const clean = options.sourceText !== undefined && !jsonTextMayHoldIllFormed(options.sourceText);
  const body = clean ? raw : wellFormedJson(raw);
  const envelope = webhookEnvelopeSchema.safeParse(body);
  if (!envelope.success) throw new WebhookShapeError(firstIssue(envelope.error));
  const { receivedAt } = options;
  const result: ParsedWebhook = { messages: [], events: [], webhookErrors: [], dropped: [] };

  for (const entry of envelope.data.entry) {
    for (const change of entry.changes) {
      if (change.field !== "messages") {
        const json = JSON.stringify(change.value ?? null);
        const tenantId = options.tenantId;
        const event: ChangeEvent = {
          kind: "change",
          dedupeId: `${tenantId}:change:${contentHash(entry.id, change.field, json)}`,
          tenantId,
          wabaId: entry.id,
          field: change.field,
          receivedAt,
          value: change.value,
        };
        result.events.push(event);
        continue;
      }
      const value = messagesValueSchema.safeParse(change.value);
      if (!value.success) throw new WebhookShapeError(`messages change: ${firstIssue(value.error)}`);
      const phoneNumberId = value.data.metadata.phone_number_id;
      const tenantId = options.tenantForPhoneNumber?.(phoneNumberId) ?? options.tenantId;
      const contacts = (value.data.contacts ?? []).flatMap((contact) => {
        const parsed = contactSchema.safeParse(contact);
        return parsed.success ? [parsed.data] : [];
      });
      const display = value.data.metadata.display_phone_number?.replace(/\D/g, "");
      const scope = {
        tenantId,
        phoneNumberId,
        wabaId: entry.id,
        receivedAt,
        contacts,
        numberListed: options.isListedNumber?.(phoneNumberId, tenantId) ?? true,
        businessIds: display === undefined || display === "" ? [phoneNumberId] : [phoneNumberId, display],
      };

      for (const item of value.data.messages ?? []) {
        const base = messageBaseSchema.safeParse(item);
        if (!base.success) {
          const id = (item as { id?: unknown } | null)?.id;
          result.dropped.push({ reason: "malformed_message", ...(typeof id === "string" ? { id } : {}) });
          continue;
        }
        const message = normalizeMessage(base.data, scope);
        if (message === undefined) result.dropped.push({ reason: "no_sender", id: base.data.id });
        else result.messages.push(message);
      }
      for (const item of value.data.statuses ?? []) {
        const status = statusSchema.safeParse(item);
        if (status.success) result.events.push(statusEvent(status.data, tenantId, phoneNumberId, receivedAt));
        else result.dropped.push({ reason: "malformed_status" });
      }
      for (const error of value.data.errors ?? []) {
        const code = (error as { code?: unknown } | null)?.code;
        result.webhookErrors.push({ phoneNumberId, code });
        result.events.push({
          kind: "webhook_error",
          dedupeId: `${tenantId}:error:${contentHash(entry.id, phoneNumberId, JSON.stringify(error))}`,
          tenantId,
          wabaId: entry.id,
          field: change.field,
          phoneNumberId,
          receivedAt,
          value: error,
        });
      }
    }
  }
  return result;
}
