import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { controlPatch } from "../fake-server/index.js";
import type { FakeGraphContext } from "./fake-graph-context.js";
import { shareSchema } from "./marketing-cap.js";

/** `uniqueRecipients: null` turns the limit off. */
const messagingLimitSchema = z.strictObject({
  uniqueRecipients: z.number().int().min(0).nullable(),
  windowMs: z.number().int().positive().optional(),
  scope: z.enum(["portfolio", "phone-number"]).optional(),
});

const marketingCapSchema = z.strictObject({ share: shareSchema });

/**
 * `/_fake` endpoints for Meta's policies on template sends: the messaging
 * limit (counts per business number, so a test can assert that Meta refused
 * nothing) and the per-user marketing cap. No token needed.
 */
export function registerPolicyControlRoutes(app: FastifyInstance, ctx: FakeGraphContext): void {
  app.get("/_fake/messaging-limit", async () => ctx.messagingLimit.snapshot());
  app.post(
    "/_fake/messaging-limit",
    controlPatch(messagingLimitSchema, ({ uniqueRecipients, windowMs, scope }) => {
      ctx.messagingLimit.configure(
        uniqueRecipients === null
          ? undefined
          : {
              uniqueRecipients,
              ...(windowMs === undefined ? {} : { windowMs }),
              ...(scope === undefined ? {} : { scope }),
            },
      );
      return ctx.messagingLimit.snapshot();
    }),
  );

  app.get("/_fake/marketing-cap", async () => ctx.marketingCap.snapshot());
  app.post(
    "/_fake/marketing-cap",
    controlPatch(marketingCapSchema, ({ share }) => {
      ctx.marketingCap.setShare(share);
      return ctx.marketingCap.snapshot();
    }),
  );
}
