import { setTimeout as sleep } from "node:timers/promises";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FakeSttContext } from "./fake-stt-context.js";
import { type AudioErrorReply, faultError, shuttingDown, unauthorized } from "./openai-audio-error.js";
import type { FakeSttRequestRecord } from "./records.js";

/** What a route does once the key and the faults let a call through. */
export type CallAnswer =
  | { readonly kind: "error"; readonly error: AudioErrorReply }
  | {
      readonly kind: "ok";
      readonly contentType: string;
      readonly body: Buffer | string | object;
      readonly record?: Partial<FakeSttRequestRecord>;
    };

function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  return typeof header === "string" ? /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] : undefined;
}

/**
 * One audio call, in the fake LLM's order: the API key, then validation
 * (`prepare` reads the body and records what was asked), then the hang
 * faults, then failNext/errorRate, then the latency, then the answer.
 */
export async function serveCall(
  ctx: FakeSttContext,
  request: FastifyRequest,
  reply: FastifyReply,
  kind: FakeSttRequestRecord["kind"],
  prepare: (seq: number) => Promise<CallAnswer>,
): Promise<FastifyReply> {
  const key = bearer(request);
  const seq = ctx.records.add({
    kind,
    path: request.url,
    authorized: key !== undefined,
    receivedAt: ctx.now(),
  });
  const send = (
    status: number,
    contentType: string,
    body: unknown,
    extra: Partial<FakeSttRequestRecord> = {},
  ) => {
    ctx.records.update(seq, { outcome: "answered", status, answeredAt: ctx.now(), ...extra });
    return reply.code(status).header("content-type", contentType).send(body);
  };
  const refuse = (error: AudioErrorReply) => {
    for (const [name, value] of Object.entries(error.headers ?? {})) reply.header(name, value);
    return send(error.status, "application/json", error.body, {
      error: error.body.error.code ?? error.body.error.type,
    });
  };
  if (ctx.apiKey !== undefined && key !== ctx.apiKey) return refuse(unauthorized(key));
  const answer = await prepare(seq);
  if (answer.kind === "error") return refuse(answer.error);

  const clientGone = new AbortController();
  reply.raw.once("close", () => clientGone.abort());
  const stop = AbortSignal.any([ctx.closing, clientGone.signal]);
  const abandon = () => {
    ctx.records.update(seq, { outcome: "abandoned" });
    reply.hijack();
    return reply;
  };
  if (ctx.faults.takeHang()) {
    ctx.records.update(seq, { outcome: "hung" });
    if (!(await ctx.held.hold(stop))) {
      if (!ctx.closing.aborted) return abandon();
      // Closing: drop the connection with no answer, as a server that dies mid-request does.
      ctx.records.update(seq, { outcome: "dropped" });
      reply.hijack();
      request.raw.socket.destroy();
      return reply;
    }
  }
  const failure = ctx.faults.takeFailure();
  const delay = ctx.faults.rollLatency();
  if (delay > 0) await sleep(delay, undefined, { signal: stop }).catch(() => undefined);
  if (stop.aborted) return ctx.closing.aborted ? refuse(shuttingDown()) : abandon();
  if (failure !== undefined) return refuse(faultError(failure));
  return send(200, answer.contentType, answer.body, answer.record);
}
