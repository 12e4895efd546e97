import Fastify, { type FastifyInstance, LogController } from "fastify";
import type { Logger } from "../../observability/index.js";
import { closeUnusedConnectionsOnClose } from "../fake-server/index.js";
import { registerCompletionRoute } from "./completion-route.js";
import { registerControlRoutes } from "./control-routes.js";
import type { FakeLlmContext } from "./fake-llm-context.js";
import { invalidUrl } from "./openai-error.js";

/** Long conversations with tool results run to a few MiB; past 8 MiB something is wrong. */
const BODY_LIMIT_BYTES = 8 * 1024 * 1024;

/**
 * Builds the fake LLM's HTTP app without listening (createFakeLlm listens).
 * Bodies are read as bytes and parsed by the routes, so a body that is not
 * JSON gets OpenAI's error, not Fastify's.
 */
export function buildFakeLlmApp(ctx: FakeLlmContext, logger: Logger): FastifyInstance {
  const app: FastifyInstance = Fastify({
    loggerInstance: logger,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT_BYTES,
    keepAliveTimeout: 65_000,
    return503OnClosing: true,
  }) as unknown as FastifyInstance;

  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "buffer" }, (_request, body, done) => done(null, body));
  closeUnusedConnectionsOnClose(app);

  app.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
    const status = error.statusCode !== undefined && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) request.log.error({ err: error }, "unexpected error in the fake LLM");
    const type = status === 500 ? "server_error" : "invalid_request_error";
    return reply.code(status).send({ error: { message: error.message, type, param: null, code: null } });
  });
  app.setNotFoundHandler((request, reply) => {
    const error = invalidUrl(request.method, request.url.split("?")[0] ?? request.url);
    return reply.code(error.status).send(error.body);
  });

  registerCompletionRoute(app, ctx);
  registerControlRoutes(app, ctx);
  return app;
}
