import type { FastifyInstance } from "fastify";
import { controlBadRequest, readControlJson, registerServiceControlRoutes } from "../fake-server/index.js";
import type { FakeLlmContext } from "./fake-llm-context.js";
import { FakeLlmRulesError } from "./rules.js";

/**
 * The fake's own endpoints under `/_fake`: what it recorded, its faults and
 * its rules, changed at run time. No API key needed.
 */
export function registerControlRoutes(app: FastifyInstance, ctx: FakeLlmContext): void {
  registerServiceControlRoutes(app, ctx);
  app.get("/_fake/rules", async () => ctx.rules().map((rule) => rule.source));
  // Rules are checked by compileRules, whose problems read better than a schema's.
  app.put("/_fake/rules", async (request, reply) => {
    const body = readControlJson(request.body);
    if (!body.ok) return controlBadRequest(reply, "the body is not JSON");
    try {
      ctx.setRules(body.value);
    } catch (error) {
      if (error instanceof FakeLlmRulesError) return controlBadRequest(reply, error.problems.join("\n"));
      throw error;
    }
    return { rules: ctx.rules().length };
  });
}
