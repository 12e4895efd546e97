import type { FastifyInstance, FastifyReply } from "fastify";
import { z } from "zod";
import { controlPatch } from "../fake-server/index.js";
import { UnknownTemplateError } from "./account-webhooks.js";
import type { FakeGraphContext } from "./fake-graph-context.js";
import { MESSAGING_LIMIT_TIERS, PHONE_NUMBER_QUALITY_EVENTS } from "./phone-number-quality-webhook.js";
import type { WebhookPostResult } from "./signed-webhook.js";
import { TEMPLATE_STATUS_EVENTS, TEMPLATE_WEBHOOK_CATEGORIES } from "./template-status-webhook.js";

const target = { webhookUrl: z.url(), appSecret: z.string().min(1) };
const tier = z.enum(MESSAGING_LIMIT_TIERS);

const qualitySchema = z.strictObject({
  ...target,
  event: z.enum(PHONE_NUMBER_QUALITY_EVENTS),
  currentLimit: tier,
  oldLimit: tier.optional(),
  maxDailyConversationsPerBusiness: tier.optional(),
  displayPhoneNumber: z.string().min(1).optional(),
});

const templateStatusSchema = z.strictObject({
  ...target,
  event: z.enum(TEMPLATE_STATUS_EVENTS),
  templateName: z.string().min(1),
  templateId: z.union([z.string().regex(/^\d+$/), z.number().int().positive()]).optional(),
  templateLanguage: z.string().min(1).optional(),
  category: z.enum(TEMPLATE_WEBHOOK_CATEGORIES).optional(),
  reason: z.string().min(1).nullable().optional(),
  disableDate: z.number().int().min(0).optional(),
  otherInfo: z.strictObject({ title: z.string(), description: z.string() }).optional(),
  rejectionInfo: z.strictObject({ reason: z.string(), recommendation: z.string() }).optional(),
});

/** The receiver's answer, or 502 when it could not be reached; 400 for a template the fake has no id for. */
async function relay(reply: FastifyReply, post: () => Promise<WebhookPostResult>) {
  try {
    return await post();
  } catch (error) {
    if (error instanceof UnknownTemplateError) {
      return reply.code(400).send({ error: "bad_request", message: error.message });
    }
    return reply.code(502).send({ error: "webhook_unreachable", message: String((error as Error).message) });
  }
}

/**
 * `/_fake/webhooks/*`: make the fake post a signed account webhook, as Meta
 * does when a number's quality or limit changes or a template's status does.
 */
export function registerAccountWebhookRoutes(app: FastifyInstance, ctx: FakeGraphContext): void {
  app.post("/_fake/webhooks/phone-number-quality", (request, reply) =>
    controlPatch(qualitySchema, (options) =>
      relay(reply, () => ctx.accountWebhooks.postPhoneNumberQuality(options)),
    )(request, reply),
  );
  app.post("/_fake/webhooks/template-status", (request, reply) =>
    controlPatch(templateStatusSchema, (options) =>
      relay(reply, () => ctx.accountWebhooks.postTemplateStatus(options)),
    )(request, reply),
  );
}
