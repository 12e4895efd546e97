import type { FastifyReply } from "fastify";
import { type IngressErrorKey, ingressErrorCatalog } from "./errors.js";

/** Sends one of the catalog's errors with a short, hint-free message. */
export function replyError(reply: FastifyReply, key: IngressErrorKey, message: string): FastifyReply {
  const entry = ingressErrorCatalog[key];
  return reply.code(entry.httpStatus).send({ error: entry.code, message });
}
