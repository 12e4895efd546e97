import type { FastifyInstance, FastifyReply } from "fastify";
import { z } from "zod";
import { faultPatchSchema } from "../fake-server/index.js";
import type { FakeLlmContext } from "./fake-llm-context.js";
import { FakeLlmRulesError } from "./rules.js";

function jsonBody(raw: unknown): { ok: true; value: unknown } | { ok: false } {
  if (!Buffer.isBuffer(raw) || raw.length === 0) return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(raw.toString("utf8")) };
  } catch {
    return { ok: false };
  }
}

function badRequest(reply: FastifyReply, message: string) {
  return reply.code(400).send({ error: "bad_request", message });
}

/**
 * The fake's own endpoints under `/_fake`: what it recorded, its faults and
 * its rules, changed at run time. No API key needed.
 */
export function registerControlRoutes(app: FastifyInstance, ctx: FakeLlmContext): void {
  app.get("/_fake/requests", async () => ctx.records.list());

  app.get("/_fake/faults", async () => ctx.faults.settings());
  app.post("/_fake/faults", async (request, reply) => {
    const body = jsonBody(request.body);
    if (!body.ok) return badRequest(reply, "the body is not JSON");
    const parsed = faultPatchSchema.safeParse(body.value);
    return parsed.success ? ctx.faults.update(parsed.data) : badRequest(reply, z.prettifyError(parsed.error));
  });

  app.get("/_fake/rules", async () => ctx.rules().map((rule) => rule.source));
  app.put("/_fake/rules", async (request, reply) => {
    const body = jsonBody(request.body);
    if (!body.ok) return badRequest(reply, "the body is not JSON");
    try {
      ctx.setRules(body.value);
    } catch (error) {
      if (error instanceof FakeLlmRulesError) return badRequest(reply, error.problems.join("\n"));
      throw error;
    }
    return { rules: ctx.rules().length };
  });

  app.post("/_fake/reset", async () => {
    ctx.reset();
    return { reset: true };
  });
}
