import type { FastifyInstance, FastifyReply } from "fastify";
import { z } from "zod";
import type { FakeGraphContext } from "./fake-graph-context.js";
import { faultPatchSchema } from "./faults.js";

const statusRequestSchema = z.strictObject({
  wamid: z.string().min(1),
  status: z.enum(["sent", "delivered", "read", "failed"]),
  webhookUrl: z.url(),
  appSecret: z.string().min(1),
  errors: z
    .array(
      z.looseObject({
        code: z.number().int(),
        title: z.string(),
        message: z.string().optional(),
        error_data: z.object({ details: z.string() }).optional(),
        href: z.string().optional(),
      }),
    )
    .optional(),
  bizOpaqueCallbackData: z.string().max(512).optional(),
  templateCategory: z.enum(["marketing", "utility", "authentication"]).optional(),
  pricing: z.boolean().optional(),
});

function jsonBody(raw: unknown): unknown {
  if (!Buffer.isBuffer(raw) || raw.length === 0) return {};
  try {
    return JSON.parse(raw.toString("utf8"));
  } catch {
    return undefined;
  }
}

function badRequest(reply: FastifyReply, error: unknown) {
  const message = error instanceof z.ZodError ? z.prettifyError(error) : "the body is not JSON";
  return reply.code(400).send({ error: "bad_request", message });
}

/**
 * The fake's own endpoints under `/_fake`: what it recorded, its faults,
 * media registration and status webhooks. No token needed.
 */
export function registerControlRoutes(app: FastifyInstance, ctx: FakeGraphContext, reset: () => void): void {
  app.get("/_fake/messages", async (request) => {
    const query = request.query as { to?: string; phoneNumberId?: string };
    return ctx.records.messages({
      ...(query.to ? { to: query.to } : {}),
      ...(query.phoneNumberId ? { phoneNumberId: query.phoneNumberId } : {}),
    });
  });
  app.delete("/_fake/messages", async () => {
    ctx.records.clear();
    return { cleared: true };
  });
  app.get("/_fake/requests", async () => ctx.records.requests());

  app.get("/_fake/faults", async () => ctx.faults.settings());
  app.post("/_fake/faults", async (request, reply) => {
    const body = jsonBody(request.body);
    if (body === undefined) return badRequest(reply, undefined);
    const parsed = faultPatchSchema.safeParse(body);
    return parsed.success ? ctx.faults.update(parsed.data) : badRequest(reply, parsed.error);
  });

  app.post("/_fake/reset", async () => {
    reset();
    return { reset: true };
  });

  app.put<{ Params: { id: string } }>(
    "/_fake/media/:id",
    { bodyLimit: 100 * 1024 * 1024 },
    async (request, reply) => {
      const bytes = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const mimeType = request.headers["content-type"] ?? "application/octet-stream";
      ctx.media.add(request.params.id, { bytes, mimeType });
      return reply.code(201).send({ id: request.params.id, file_size: bytes.length });
    },
  );

  app.post("/_fake/statuses", async (request, reply) => {
    const body = jsonBody(request.body);
    if (body === undefined) return badRequest(reply, undefined);
    const parsed = statusRequestSchema.safeParse(body);
    if (!parsed.success) return badRequest(reply, parsed.error);
    try {
      return await ctx.statuses.post(parsed.data);
    } catch (error) {
      return reply
        .code(502)
        .send({ error: "webhook_unreachable", message: String((error as Error).message) });
    }
  });
}
