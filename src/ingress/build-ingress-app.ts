import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from "fastify";
import type { ServerLimits, TenantConfig } from "../config/index.js";
import {
  type IngressMetrics,
  type Logger,
  registerPublicHealthRoutes,
  type Tracing,
  tracingOff,
} from "../observability/index.js";
import type { InboundQueue, QueueStatus } from "../queue/index.js";
import { replyError } from "./reply-error.js";
import { createRequestMetrics } from "./request-metrics.js";
import { createTenantDirectory } from "./tenant-directory.js";
import { registerVerificationRoute } from "./verification-route.js";
import { OUTCOME, registerWebhookRoute } from "./webhook-route.js";

export interface IngressAppOptions {
  readonly tenants: readonly TenantConfig[];
  readonly queue: InboundQueue;
  readonly status: QueueStatus;
  readonly metrics: IngressMetrics;
  readonly logger: Logger;
  /** Largest accepted body, bytes (3 MiB in production: INGRESS_BODY_LIMIT_BYTES). */
  readonly bodyLimitBytes: number;
  /** Timeouts and the connection cap of the listener (config.server); none: Node's defaults, keep-alive 65 s. */
  readonly limits?: Omit<ServerLimits, "bodyLimitBytes">;
  /** How long the bare /readyz waits for the queue backend, ms. */
  readonly readyTimeoutMs?: number;
  readonly now?: () => number;
  /** A span per webhook, carried by its messages and statuses; default off. */
  readonly tracing?: Tracing;
}

type Outcome = FastifyRequest & { [OUTCOME]?: string };

/**
 * Builds the ingress HTTP app without listening (tests drive it with
 * inject(), the CLI calls listen()). Every body is read as raw bytes so the
 * signature is checked over exactly what Meta signed.
 */
export async function buildIngressApp(options: IngressAppOptions): Promise<FastifyInstance> {
  const now = options.now ?? Date.now;
  const { metrics, limits } = options;
  // Typed as the plain instance: routes take FastifyBaseLogger, which our pino Logger satisfies.
  const app: FastifyInstance = Fastify({
    loggerInstance: options.logger,
    // Per-request log lines would cost more than the request itself; outcomes go to metrics.
    logController: new LogController({ disableRequestLogging: true }),
    // Fastify would make a pino child (bindings, redaction setup) for every request; request.log is the
    // app's logger instead, and the few lines the ingress writes name the request id themselves.
    childLoggerFactory: (logger) => logger,
    bodyLimit: options.bodyLimitBytes,
    // Meta's POSTs come from many connections at once; keep them open between deliveries.
    keepAliveTimeout: limits?.keepAliveTimeoutMs ?? 65_000,
    ...(limits === undefined
      ? {}
      : {
          // A client that sends its request slowly (or not at all) is cut off instead of holding a socket.
          requestTimeout: limits.requestTimeoutMs,
          connectionTimeout: limits.idleTimeoutMs,
          http: {
            headersTimeout: limits.headersTimeoutMs,
            // Node checks the request and header timeouts only this often (30 s by default).
            connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs),
          },
        }),
    return503OnClosing: true,
  }) as unknown as FastifyInstance;
  if (limits !== undefined) app.server.maxConnections = limits.maxConnections;

  // On close, Fastify drops idle keep-alive sockets but a response still in flight would keep its
  // socket open for the whole keep-alive timeout: tell those clients to close instead.
  let closing = false;
  app.addHook("preClose", async () => {
    closing = true;
  });
  // Hooks take a callback rather than being async: no promise per request.
  app.addHook("onSend", (_request, reply, payload, done) => {
    if (closing) reply.header("connection", "close");
    done(null, payload);
  });

  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "buffer" }, (_request, body, done) => done(null, body));

  // Each route records its own requests under its pattern, known when it is registered: reading
  // request.routeOptions per request would build a dozen-field object for every webhook.
  const requestMetrics = createRequestMetrics(metrics);
  const recorderFor =
    (route: string) =>
    (request: FastifyRequest, reply: FastifyReply, done: () => void): void => {
      requestMetrics.record(route, (request as Outcome)[OUTCOME], reply.statusCode, reply.elapsedTime / 1000);
      done();
    };
  app.addHook("onRoute", (route) => {
    const own = route.onResponse === undefined ? [] : [route.onResponse].flat();
    route.onResponse = [...own, recorderFor(route.url)];
  });
  const recordUnmatched = recorderFor("unmatched");
  app.addHook("onResponse", (request, reply, done) => {
    if (request.is404) recordUnmatched(request, reply, done);
    else done();
  });

  app.setErrorHandler((error: Error & { code?: string; statusCode?: number }, request, reply) => {
    if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE") {
      (request as Outcome)[OUTCOME] = "too_large";
      return replyError(reply, "bodyTooLarge", `body larger than ${options.bodyLimitBytes} bytes`);
    }
    if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
      (request as Outcome)[OUTCOME] = "malformed";
      return replyError(reply, "malformedJson", "bad request");
    }
    request.log.error({ err: error, reqId: request.id }, "unexpected error in the ingress");
    return replyError(reply, "internal", `internal error (request ${request.id})`);
  });

  const tenants = createTenantDirectory(options.tenants);
  registerVerificationRoute(app, tenants, metrics);
  registerWebhookRoute(app, {
    tenants,
    queue: options.queue,
    metrics,
    logger: options.logger,
    now,
    tracing: options.tracing ?? tracingOff,
  });

  // Metrics and the reason a backend is down are for the admin listener, not for whoever reaches this port.
  registerPublicHealthRoutes(app, () => options.status.ping(options.readyTimeoutMs ?? 1000));
  return app;
}
