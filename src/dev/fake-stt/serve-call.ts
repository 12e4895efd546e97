import type { FastifyReply, FastifyRequest } from "fastify";
import { applyServiceFaults, bearerKey } from "../fake-server/index.js";
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
  const key = bearerKey(request);
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

  const verdict = await applyServiceFaults(ctx, request, reply, (outcome) =>
    ctx.records.update(seq, { outcome }),
  );
  if (verdict.kind === "gone") return reply;
  if (verdict.kind === "shutting-down") return refuse(shuttingDown());
  if (verdict.kind === "fail") return refuse(faultError(verdict.status));
  return send(200, answer.contentType, answer.body, answer.record);
}
