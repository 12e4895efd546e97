import { z } from "zod";
import type { Logger } from "../observability/index.js";
import { maskConversationKey } from "../observability/index.js";
import type { OutboundReply } from "../queue/index.js";
import { ReengagementTemplateError } from "./errors.js";
import type { OutboundMetrics } from "./outbound-metrics.js";
import type { OutboundQueue } from "./ports.js";

/** The approved template a tenant sends when a reply falls outside the 24 h window (131047). */
export interface ReengagementTemplate {
  readonly name: string;
  /** Meta's language code of the template, e.g. "en" or "en_US". */
  readonly language: string;
}

const templateSchema = z.strictObject({ name: z.string().trim().min(1), language: z.string().trim().min(1) });

/**
 * Reads `settings.reengagementTemplate` of each tenant; a tenant without it
 * has none. Throws ReengagementTemplateError for a malformed one, so the
 * worker stops at start rather than at the first 131047.
 */
export function reengagementTemplates(
  tenants: readonly { readonly id: string; readonly settings: Readonly<Record<string, unknown>> }[],
): ReadonlyMap<string, ReengagementTemplate> {
  const templates = new Map<string, ReengagementTemplate>();
  for (const tenant of tenants) {
    const raw = tenant.settings.reengagementTemplate;
    if (raw === undefined) continue;
    const parsed = templateSchema.safeParse(raw);
    if (!parsed.success) {
      throw new ReengagementTemplateError(tenant.id, "expected { name, language } with non-empty strings");
    }
    templates.set(tenant.id, parsed.data);
  }
  return templates;
}

/** The message a re-engagement replaces, as the sender or the delivery store knows it. */
export type ReengagementTarget = Pick<
  OutboundReply,
  "tenantId" | "phoneNumberId" | "conversationKey" | "to" | "recipient" | "turnId" | "part" | "reengagement"
>;

/** `queued`: the template is queued (or already was); `no_template`: recorded only; `skipped`: the message was a template itself. */
export type ReengagementOutcome = "queued" | "no_template" | "skipped";

export interface ReengagementDeps {
  readonly queue: OutboundQueue;
  readonly templateFor: (tenantId: string) => ReengagementTemplate | undefined;
  readonly logger: Logger;
  readonly metrics: OutboundMetrics | undefined;
}

/**
 * Sends the tenant's re-engagement template to the customer of a message
 * Meta refused with 131047. The template is one reply of the turn id
 * `<original turn>#reengage`, same part, so its job id is derived from the
 * original's and a second give-up or failed status for it queues nothing
 * more (within the outbound queue's dedupe window).
 */
export function createReengagement(deps: ReengagementDeps) {
  return async function reengage(original: ReengagementTarget): Promise<ReengagementOutcome> {
    const tenant = original.tenantId;
    const log = deps.logger.child({ tenant, conversation: maskConversationKey(original.conversationKey) });
    const template = deps.templateFor(tenant);
    // A template refused with 131047 again would loop; Meta does not do that, but one never re-engages twice.
    const outcome: ReengagementOutcome =
      original.reengagement === true ? "skipped" : template === undefined ? "no_template" : "queued";
    if (outcome === "queued" && template !== undefined) {
      const customer = original.to !== undefined ? { to: original.to } : { recipient: original.recipient };
      await deps.queue.enqueue([
        {
          tenantId: tenant,
          phoneNumberId: original.phoneNumberId,
          conversationKey: original.conversationKey,
          ...customer,
          turnId: `${original.turnId}#reengage`,
          part: original.part,
          message: {
            type: "template",
            template: { name: template.name, language: { code: template.language } },
          },
          reengagement: true,
        },
      ]);
    }
    deps.metrics?.reengagements.inc({ tenant, outcome });
    log.info({ outcome, template: template?.name }, "reply outside the 24 h window (131047): re-engagement");
    return outcome;
  };
}

/** Re-engages the customer of a message refused with 131047. */
export type Reengage = ReturnType<typeof createReengagement>;
