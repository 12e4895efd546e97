import type { FastifyInstance } from "fastify";
import type { IngressMetrics } from "../observability/index.js";
import { replyError } from "./reply-error.js";
import { constantTimeEquals } from "./signature.js";
import type { TenantDirectory } from "./tenant-directory.js";

interface VerificationQuery {
  "hub.mode"?: string;
  "hub.verify_token"?: string;
  "hub.challenge"?: string;
}

/** Meta's challenges are short numbers; bounding the echo keeps the endpoint from reflecting arbitrary payloads. */
const MAX_CHALLENGE_LENGTH = 256;

/**
 * GET /webhook[/:tenant]: Meta's subscription check. 200 with hub.challenge
 * as text/plain when hub.mode is "subscribe" and hub.verify_token matches
 * (compared in constant time); 403 otherwise.
 */
export function registerVerificationRoute(
  app: FastifyInstance,
  tenants: TenantDirectory,
  metrics: IngressMetrics,
) {
  const handler = async (
    request: { params: unknown; query: unknown },
    reply: import("fastify").FastifyReply,
  ) => {
    const tenant = tenants.find((request.params as { tenant?: string }).tenant);
    if (tenant === undefined) {
      metrics.requests.inc({ route: "verify", outcome: "unknown_tenant" });
      // Answered as a failed verification, so nobody can tell which tenant ids exist.
      return replyError(reply, "verificationFailed", "verification failed");
    }
    const query = request.query as VerificationQuery;
    const challenge = query["hub.challenge"];
    const verified =
      query["hub.mode"] === "subscribe" &&
      typeof query["hub.verify_token"] === "string" &&
      constantTimeEquals(query["hub.verify_token"], tenant.verifyToken) &&
      typeof challenge === "string" &&
      challenge.length > 0 &&
      challenge.length <= MAX_CHALLENGE_LENGTH;
    if (!verified) {
      metrics.requests.inc({ route: "verify", outcome: "rejected" });
      return replyError(reply, "verificationFailed", "verification failed");
    }
    metrics.requests.inc({ route: "verify", outcome: "verified" });
    return reply
      .code(200)
      .header("content-type", "text/plain; charset=utf-8")
      .header("x-content-type-options", "nosniff")
      .send(challenge);
  };
  app.get("/webhook", handler);
  app.get("/webhook/:tenant", handler);
}
