import { createHash } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { audioSeconds } from "./audio.js";
import type { FakeSttContext } from "./fake-stt-context.js";
import { invalid } from "./openai-audio-error.js";
import { type CallAnswer, serveCall } from "./serve-call.js";
import { findTranscript, languageName } from "./transcripts.js";

const FORMATS = ["flac", "m4a", "mp3", "mp4", "mpeg", "mpga", "oga", "ogg", "wav", "webm"];
/** OpenAI's upload limit. */
export const MAX_AUDIO_BYTES = 25 * 1024 * 1024;

async function readForm(request: FastifyRequest): Promise<FormData | undefined> {
  const type = request.headers["content-type"] ?? "";
  if (!Buffer.isBuffer(request.body) || !type.toLowerCase().startsWith("multipart/form-data"))
    return undefined;
  try {
    // undici's multipart parser, the same that backs fetch's Response.formData().
    return await new Response(request.body, { headers: { "content-type": type } }).formData();
  } catch {
    return undefined;
  }
}

function field(form: FormData, name: string): string | undefined {
  const value = form.get(name);
  return typeof value === "string" && value !== "" ? value : undefined;
}

async function prepare(ctx: FakeSttContext, request: FastifyRequest, seq: number): Promise<CallAnswer> {
  const error = (message: string, param: string | null = null, status = 400): CallAnswer => ({
    kind: "error",
    error: invalid(message, param, status),
  });
  const form = await readForm(request);
  if (form === undefined)
    return error("Invalid Content-Type header, expected multipart/form-data with a file and a model.");
  const model = field(form, "model");
  const language = field(form, "language");
  const responseFormat = field(form, "response_format") ?? "json";
  const file = form.get("file");
  const audio = typeof file === "object" && file !== null ? Buffer.from(await file.arrayBuffer()) : undefined;
  const fileName = typeof file === "object" && file !== null ? file.name : undefined;
  const sha256 = audio === undefined ? undefined : createHash("sha256").update(audio).digest("hex");
  ctx.records.update(seq, {
    ...(model === undefined ? {} : { model }),
    ...(language === undefined ? {} : { language }),
    responseFormat,
    ...(fileName === undefined ? {} : { fileName }),
    ...(typeof file === "object" && file !== null ? { mimeType: file.type } : {}),
    ...(audio === undefined ? {} : { size: audio.length, sha256 }),
  });
  if (model === undefined) return error("you must provide a model parameter", "model");
  if (audio === undefined || fileName === undefined || sha256 === undefined)
    return error("you must provide a file parameter", "file");
  const extension = fileName.split(".").pop()?.toLowerCase() ?? "";
  if (!FORMATS.includes(extension))
    return error(`Invalid file format. Supported formats: ${JSON.stringify(FORMATS)}`, "file");
  if (audio.length > MAX_AUDIO_BYTES)
    return error("Maximum content size limit (26214400) exceeded.", "file", 413);
  if (audio.length < 100)
    return error("Audio file is too short. Minimum audio length is 0.1 seconds.", "file");
  if (language !== undefined && !/^[a-z]{2}$/.test(language))
    return error(
      `Invalid language '${language}'. Language parameter must be specified in ISO-639-1 format.`,
      "language",
    );
  if (!["json", "text", "verbose_json"].includes(responseFormat))
    return error(
      `response_format '${responseFormat}' is not supported by the fake (json, text, verbose_json)`,
      "response_format",
    );

  const { transcript, match } = findTranscript(ctx.transcripts(), sha256, fileName);
  const scripted = typeof transcript === "string" ? { text: transcript } : transcript;
  const text = scripted?.text ?? ctx.defaultTranscript;
  const duration = scripted?.durationSeconds ?? audioSeconds(audio) ?? audio.length / 16_000;
  const spoken = scripted?.language ?? (language === undefined ? "english" : languageName(language));
  const record = { match };
  if (responseFormat === "text")
    return { kind: "ok", contentType: "text/plain; charset=utf-8", body: `${text}\n`, record };
  if (responseFormat === "json")
    return {
      kind: "ok",
      contentType: "application/json",
      body: { text, usage: { type: "duration", seconds: Math.ceil(duration) } },
      record,
    };
  const rounded = Math.round(duration * 100) / 100;
  return {
    kind: "ok",
    contentType: "application/json",
    body: {
      task: "transcribe",
      language: spoken,
      duration: rounded,
      text,
      segments: [
        {
          id: 0,
          seek: 0,
          start: 0,
          end: rounded,
          text: ` ${text}`,
          tokens: [],
          temperature: 0,
          avg_logprob: -0.2,
          compression_ratio: 1,
          no_speech_prob: 0.01,
        },
      ],
    },
    record,
  };
}

/** `POST /v1/audio/transcriptions` (and `/audio/transcriptions`): OpenAI's multipart form, json/text/verbose_json. */
export function registerTranscriptionRoute(app: FastifyInstance, ctx: FakeSttContext): void {
  const handler = (request: FastifyRequest, reply: FastifyReply) =>
    serveCall(ctx, request, reply, "transcription", (seq) => prepare(ctx, request, seq));
  app.post("/v1/audio/transcriptions", handler);
  app.post("/audio/transcriptions", handler);
}
