import type { FastifyInstance } from "fastify";
import { checkToken, type FakeGraphContext, passOutage } from "./fake-graph-context.js";
import { FAKE_TEMPLATES } from "./fake-templates.js";

export function registerTemplateRoutes(app: FastifyInstance, ctx: FakeGraphContext): void {
  app.get("/:version/:wabaId/message_templates", async (request, reply) => {
    const error = (await passOutage(ctx)) ?? checkToken(ctx, request);
    if (error !== undefined) return reply.code(error.status).send(error.body);
    return { data: FAKE_TEMPLATES, paging: { cursors: { before: "QVFI", after: "QVFJ" } } };
  });
}
