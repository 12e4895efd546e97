import type { FastifyInstance, FastifyReply } from "fastify";
import { z } from "zod";
import { type Faults, faultPatchSchema } from "./service-faults.js";

/** An empty body reads as `{}`, so a bare POST works. */
export function readControlJson(raw: unknown): { ok: true; value: unknown } | { ok: false } {
  if (!Buffer.isBuffer(raw) || raw.length === 0) return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(raw.toString("utf8")) };
  } catch {
    return { ok: false };
  }
}

export function controlBadRequest(reply: FastifyReply, message: string) {
  return reply.code(400).send({ error: "bad_request", message });
}

/** A `/_fake` handler that checks its JSON body against `schema` before `apply`. */
export function controlPatch<T>(schema: z.ZodType<T>, apply: (value: T) => unknown) {
  return async (request: { body: unknown }, reply: FastifyReply) => {
    const body = readControlJson(request.body);
    if (!body.ok) return controlBadRequest(reply, "the body is not JSON");
    const parsed = schema.safeParse(body.value);
    return parsed.success ? apply(parsed.data) : controlBadRequest(reply, z.prettifyError(parsed.error));
  };
}

/**
 * The `/_fake` endpoints every fake OpenAI-compatible service has: what it
 * recorded, its faults, and reset. No API key needed.
 */
export function registerServiceControlRoutes(
  app: FastifyInstance,
  service: { readonly records: { list(): unknown }; readonly faults: Faults; reset(): void },
): void {
  app.get("/_fake/requests", async () => service.records.list());
  app.get("/_fake/faults", async () => service.faults.settings());
  app.post(
    "/_fake/faults",
    controlPatch(faultPatchSchema, (value) => service.faults.update(value)),
  );
  app.post("/_fake/reset", async () => {
    service.reset();
    return { reset: true };
  });
}
