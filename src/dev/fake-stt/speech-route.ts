import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { silentOggOpus, sineWav } from "./audio.js";
import type { FakeSttContext } from "./fake-stt-context.js";
import { invalid } from "./openai-audio-error.js";
import { type CallAnswer, serveCall } from "./serve-call.js";

const RESPONSE_FORMATS = ["mp3", "opus", "aac", "flac", "wav", "pcm"];

function prepare(ctx: FakeSttContext, request: FastifyRequest, seq: number): CallAnswer {
  const error = (message: string, param: string | null = null): CallAnswer => ({
    kind: "error",
    error: invalid(message, param),
  });
  let body: Record<string, unknown>;
  try {
    const parsed = Buffer.isBuffer(request.body)
      ? (JSON.parse(request.body.toString("utf8")) as unknown)
      : undefined;
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
      throw new Error("not an object");
    body = parsed as Record<string, unknown>;
  } catch {
    return error("We could not parse the JSON body of your request. The OpenAI API expects a JSON payload.");
  }
  const text = (name: string) => (typeof body[name] === "string" ? (body[name] as string) : undefined);
  const model = text("model");
  const input = text("input");
  const voice = text("voice");
  const responseFormat = text("response_format") ?? "mp3";
  ctx.records.update(seq, {
    ...(model === undefined ? {} : { model }),
    ...(input === undefined ? {} : { input }),
    ...(voice === undefined ? {} : { voice }),
    responseFormat,
  });
  if (model === undefined) return error("you must provide a model parameter", "model");
  if (input === undefined || input === "") return error("Missing required parameter: 'input'.", "input");
  if (input.length > 4096) return error("String should have at most 4096 characters", "input");
  if (voice === undefined) return error("Missing required parameter: 'voice'.", "voice");
  if (!RESPONSE_FORMATS.includes(responseFormat))
    return error(`Invalid response_format '${responseFormat}'.`, "response_format");
  // About as long as the text would take to say, kept short: a tone for tests, not speech.
  const seconds = Math.min(3, Math.max(0.2, input.length * 0.03));
  return ctx.speechFormat() === "ogg"
    ? { kind: "ok", contentType: "audio/ogg", body: silentOggOpus(seconds) }
    : { kind: "ok", contentType: "audio/wav", body: sineWav(seconds) };
}

/**
 * `POST /v1/audio/speech` (and `/audio/speech`): OpenAI's JSON request. It
 * answers a WAV tone whatever format was asked (as some local servers do),
 * so the client's transcoding runs, or silent OGG/Opus with speech format "ogg".
 */
export function registerSpeechRoute(app: FastifyInstance, ctx: FakeSttContext): void {
  const handler = (request: FastifyRequest, reply: FastifyReply) =>
    serveCall(ctx, request, reply, "speech", async (seq) => prepare(ctx, request, seq));
  app.post("/v1/audio/speech", handler);
  app.post("/audio/speech", handler);
}
