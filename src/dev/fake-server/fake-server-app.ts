import Fastify, { type FastifyInstance, LogController } from "fastify";
import type { Logger } from "../../observability/index.js";
import { closeUnusedConnectionsOnClose } from "./connection-tracker.js";

/**
 * The Fastify app every fake runs on, without routes. Bodies are kept as
 * bytes for the routes to parse, so a malformed one gets the real
 * service's error, not Fastify's.
 */
export function createFakeServerApp(logger: Logger, bodyLimit: number): FastifyInstance {
  const app: FastifyInstance = Fastify({
    loggerInstance: logger,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit,
    keepAliveTimeout: 65_000,
    return503OnClosing: true,
  }) as unknown as FastifyInstance;

  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "buffer" }, (_request, body, done) => done(null, body));
  closeUnusedConnectionsOnClose(app);
  return app;
}

/** Listens (default 127.0.0.1, port 0) and returns the base URL, an IPv6 host in brackets. */
export async function listenForUrl(
  app: FastifyInstance,
  options: { readonly host?: string; readonly port?: number } = {},
): Promise<string> {
  const host = options.host ?? "127.0.0.1";
  await app.listen({ host, port: options.port ?? 0 });
  const { port } = app.server.address() as { port: number };
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}
