import Fastify, { type FastifyInstance, LogController } from "fastify";
import type { Logger } from "../../observability/index.js";
import { closeUnusedConnectionsOnClose } from "../fake-server/index.js";
import { registerControlRoutes } from "./control-routes.js";
import type { FakeSttContext } from "./fake-stt-context.js";
import { invalidUrl } from "./openai-audio-error.js";
import { registerSpeechRoute } from "./speech-route.js";
import { MAX_AUDIO_BYTES, registerTranscriptionRoute } from "./transcription-route.js";

/**
 * Builds the fake speech server's HTTP app without listening. Bodies are
 * read as bytes and parsed by the routes, so a malformed one gets OpenAI's
 * error, not Fastify's; a body a little over OpenAI's 25 MB limit still
 * reaches the route, which answers 413 as OpenAI does.
 */
export function buildFakeSttApp(ctx: FakeSttContext, logger: Logger): FastifyInstance {
  const app: FastifyInstance = Fastify({
    loggerInstance: logger,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: MAX_AUDIO_BYTES + 1024 * 1024,
    keepAliveTimeout: 65_000,
    return503OnClosing: true,
  }) as unknown as FastifyInstance;

  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "buffer" }, (_request, body, done) => done(null, body));
  closeUnusedConnectionsOnClose(app);

  app.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
    const status = error.statusCode !== undefined && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) request.log.error({ err: error }, "unexpected error in the fake speech server");
    const type = status === 500 ? "server_error" : "invalid_request_error";
    return reply.code(status).send({ error: { message: error.message, type, param: null, code: null } });
  });
  app.setNotFoundHandler((request, reply) => {
    const error = invalidUrl(request.method, request.url.split("?")[0] ?? request.url);
    return reply.code(error.status).send(error.body);
  });

  registerTranscriptionRoute(app, ctx);
  registerSpeechRoute(app, ctx);
  registerControlRoutes(app, ctx);
  return app;
}
