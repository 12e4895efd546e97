import type { FastifyInstance } from "fastify";
import type { Logger } from "../../observability/index.js";
import { createFakeServerApp } from "../fake-server/index.js";
import { registerAccountWebhookRoutes } from "./account-webhook-routes.js";
import { registerControlRoutes } from "./control-routes.js";
import type { FakeGraphContext } from "./fake-graph-context.js";
import { graphError } from "./graph-error.js";
import { registerMediaRoutes } from "./media-routes.js";
import { registerPolicyControlRoutes } from "./policy-control-routes.js";
import { registerSendRoute } from "./send-route.js";
import { registerTemplateRoutes } from "./template-routes.js";
import { registerUploadRoute } from "./upload-route.js";

/** Meta refuses bodies past a few MiB; 1 MiB is plenty for any valid send. */
const BODY_LIMIT_BYTES = 1024 * 1024;

/** Builds the fake Graph API's HTTP app without listening (createFakeGraphApi listens). */
export function buildFakeGraphApp(ctx: FakeGraphContext, logger: Logger, reset: () => void): FastifyInstance {
  const app = createFakeServerApp(logger, BODY_LIMIT_BYTES);
  // A held (hanging) request is not idle, so Fastify's close would wait for it forever.
  app.addHook("preClose", async () => ctx.hangs.releaseAll());

  app.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
    const status = error.statusCode !== undefined && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) request.log.error({ err: error }, "unexpected error in the fake Graph API");
    const body = graphError(status === 500 ? 131000 : 100, ctx.ids.traceId(), { details: error.message });
    return reply.code(status).send(body.body);
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(400).send({
      error: {
        message: `Unknown path components: ${request.url.split("?")[0]}`,
        type: "OAuthException",
        code: 2500,
        fbtrace_id: ctx.ids.traceId(),
      },
    }),
  );

  registerSendRoute(app, ctx);
  registerMediaRoutes(app, ctx);
  registerUploadRoute(app, ctx);
  registerTemplateRoutes(app, ctx);
  registerControlRoutes(app, ctx, reset);
  registerPolicyControlRoutes(app, ctx);
  registerAccountWebhookRoutes(app, ctx);
  return app;
}
