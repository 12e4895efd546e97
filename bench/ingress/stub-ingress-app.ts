import type { FastifyInstance } from "fastify";
import { buildIngressApp } from "../../src/ingress/index.js";
import { createIngressMetrics, createTracing, type Logger } from "../../src/observability/index.js";
import { benchTenant } from "./bench-tenant.js";

/**
 * The ingress app with a queue that records nothing and answers at once, so
 * what is measured is the HTTP path alone (signature, JSON, envelope,
 * normalisation). `traced`: a span per webhook, batched to an exporter that
 * drops them (the cost of making and batching spans, without the network).
 */
export function buildStubIngressApp(options: {
  readonly secret: string;
  readonly logger: Logger;
  readonly traced: boolean;
}): Promise<FastifyInstance> {
  const { logger } = options;
  const tracing = options.traced
    ? createTracing(undefined, {
        logger,
        role: "ingress",
        exporter: { export: (_spans, done) => done({ code: 0 }), shutdown: async () => {} },
      })
    : undefined;
  return buildIngressApp({
    tenants: [benchTenant(options.secret)],
    queue: {
      enqueue: async (batch) => ({
        messages: batch.messages.map((message) => (JSON.stringify(message) ? "new" : "new")),
        events: batch.events.map(() => "new"),
      }),
    },
    status: {
      description: "stub",
      ping: async () => {},
      whenReady: async () => {},
      depth: async () => ({ inboxMessages: 0, inboxConversations: 0, unscheduledConversations: 0, jobs: {} }),
    },
    metrics: createIngressMetrics({ defaultMetrics: false }),
    logger,
    bodyLimitBytes: 1024 * 1024,
    ...(tracing === undefined ? {} : { tracing }),
  });
}
