import type { FastifyInstance } from "fastify";

/** An error answer in OpenAI's shape, as each fake words it. */
export interface OpenAiShapedError {
  readonly status: number;
  readonly body: unknown;
}

/**
 * Answers Fastify's own errors and unknown paths in OpenAI's shape, so a
 * client sees what OpenAI would send. `serviceName` names the fake in the
 * log line of an unexpected error.
 */
export function answerErrorsAsOpenAi(
  app: FastifyInstance,
  serviceName: string,
  invalidUrl: (method: string, path: string) => OpenAiShapedError,
): void {
  app.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
    const status = error.statusCode !== undefined && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) request.log.error({ err: error }, `unexpected error in ${serviceName}`);
    const type = status === 500 ? "server_error" : "invalid_request_error";
    return reply.code(status).send({ error: { message: error.message, type, param: null, code: null } });
  });
  app.setNotFoundHandler((request, reply) => {
    const error = invalidUrl(request.method, request.url.split("?")[0] ?? request.url);
    return reply.code(error.status).send(error.body);
  });
}
