import type { FastifyInstance, FastifyReply } from "fastify";
import { z } from "zod";
import { faultPatchSchema } from "../fake-server/index.js";
import type { FakeSttContext } from "./fake-stt-context.js";
import { transcriptRulesSchema } from "./transcripts.js";

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

const speechFormatSchema = z.strictObject({ format: z.enum(["wav", "ogg"]) });

/**
 * The fake's own endpoints under `/_fake`, as the fake LLM's: requests,
 * faults, the scripted transcripts (`PUT` replaces them) and the speech
 * format. No API key needed.
 */
export function registerControlRoutes(app: FastifyInstance, ctx: FakeSttContext): void {
  const patch =
    <T>(schema: z.ZodType<T>, apply: (value: T) => unknown) =>
    async (request: { body: unknown }, reply: FastifyReply) => {
      const body = jsonBody(request.body);
      if (!body.ok) return badRequest(reply, "the body is not JSON");
      const parsed = schema.safeParse(body.value);
      return parsed.success ? apply(parsed.data) : badRequest(reply, z.prettifyError(parsed.error));
    };
  app.get("/_fake/requests", async () => ctx.records.list());
  app.get("/_fake/faults", async () => ctx.faults.settings());
  app.post(
    "/_fake/faults",
    patch(faultPatchSchema, (value) => ctx.faults.update(value)),
  );
  app.get("/_fake/transcripts", async () => ctx.transcripts());
  app.put(
    "/_fake/transcripts",
    patch(transcriptRulesSchema, (value) => {
      ctx.setTranscripts(value);
      return { transcripts: Object.keys(value).length };
    }),
  );
  app.get("/_fake/speech-format", async () => ({ format: ctx.speechFormat() }));
  app.put(
    "/_fake/speech-format",
    patch(speechFormatSchema, (value) => {
      ctx.setSpeechFormat(value.format);
      return value;
    }),
  );
  app.post("/_fake/reset", async () => {
    ctx.reset();
    return { reset: true };
  });
}
