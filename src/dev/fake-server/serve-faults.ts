import { setTimeout as sleep } from "node:timers/promises";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { HeldRequests } from "./held-requests.js";
import type { FaultStatus, Faults } from "./service-faults.js";

/** The key of an `Authorization: Bearer <key>` header, if there is one. */
export function bearerKey(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  return typeof header === "string" ? /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] : undefined;
}

/** What is left for the route to answer once the faults have had their say. */
export type FaultVerdict =
  | { readonly kind: "answer" }
  | { readonly kind: "fail"; readonly status: FaultStatus }
  | { readonly kind: "shutting-down" }
  /** The client gave up, or the fake dropped the connection: nothing may be sent. */
  | { readonly kind: "gone" };

export type WaitOutcome = "hung" | "abandoned" | "dropped";

/**
 * Applies a valid request's faults in the order of OpenAI-compatible fakes:
 * the hang faults, then failNext/errorRate, then the latency. Waiting (held
 * or delayed) ends when the fake closes or the client gives up; `record`
 * notes each such turn.
 */
export async function applyServiceFaults(
  service: { readonly faults: Faults; readonly held: HeldRequests; readonly closing: AbortSignal },
  request: FastifyRequest,
  reply: FastifyReply,
  record: (outcome: WaitOutcome) => void,
): Promise<FaultVerdict> {
  const clientGone = new AbortController();
  reply.raw.once("close", () => clientGone.abort());
  const stop = AbortSignal.any([service.closing, clientGone.signal]);
  const abandon = (): FaultVerdict => {
    record("abandoned");
    reply.hijack();
    return { kind: "gone" };
  };
  if (service.faults.takeHang()) {
    record("hung");
    if (!(await service.held.hold(stop))) {
      if (!service.closing.aborted) return abandon();
      // Closing: drop the connection with no answer, as a server that dies mid-request does.
      record("dropped");
      reply.hijack();
      request.raw.socket.destroy();
      return { kind: "gone" };
    }
  }
  const failure = service.faults.takeFailure();
  const delay = service.faults.rollLatency();
  if (delay > 0) await sleep(delay, undefined, { signal: stop }).catch(() => undefined);
  if (stop.aborted) return service.closing.aborted ? { kind: "shutting-down" } : abandon();
  return failure === undefined ? { kind: "answer" } : { kind: "fail", status: failure };
}
