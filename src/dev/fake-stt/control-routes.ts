import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { controlPatch, registerServiceControlRoutes } from "../fake-server/index.js";
import type { FakeSttContext } from "./fake-stt-context.js";
import { transcriptRulesSchema } from "./transcripts.js";

const speechFormatSchema = z.strictObject({ format: z.enum(["wav", "ogg"]) });

/**
 * The fake's own endpoints under `/_fake`, as the fake LLM's: requests,
 * faults, the scripted transcripts (`PUT` replaces them) and the speech
 * format. No API key needed.
 */
export function registerControlRoutes(app: FastifyInstance, ctx: FakeSttContext): void {
  registerServiceControlRoutes(app, ctx);
  app.get("/_fake/transcripts", async () => ctx.transcripts());
  app.put(
    "/_fake/transcripts",
    controlPatch(transcriptRulesSchema, (value) => {
      ctx.setTranscripts(value);
      return { transcripts: Object.keys(value).length };
    }),
  );
  app.get("/_fake/speech-format", async () => ({ format: ctx.speechFormat() }));
  app.put(
    "/_fake/speech-format",
    controlPatch(speechFormatSchema, (value) => {
      ctx.setSpeechFormat(value.format);
      return value;
    }),
  );
}
