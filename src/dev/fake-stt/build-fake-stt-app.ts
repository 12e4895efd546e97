import type { FastifyInstance } from "fastify";
import type { Logger } from "../../observability/index.js";
import { answerErrorsAsOpenAi, createFakeServerApp } from "../fake-server/index.js";
import { registerControlRoutes } from "./control-routes.js";
import type { FakeSttContext } from "./fake-stt-context.js";
import { invalidUrl } from "./openai-audio-error.js";
import { registerSpeechRoute } from "./speech-route.js";
import { MAX_AUDIO_BYTES, registerTranscriptionRoute } from "./transcription-route.js";

/**
 * Builds the fake speech server's HTTP app without listening. A body a
 * little over OpenAI's 25 MB limit still reaches the route, which answers
 * 413 as OpenAI does.
 */
export function buildFakeSttApp(ctx: FakeSttContext, logger: Logger): FastifyInstance {
  const app = createFakeServerApp(logger, MAX_AUDIO_BYTES + 1024 * 1024);
  answerErrorsAsOpenAi(app, "the fake speech server", invalidUrl);
  registerTranscriptionRoute(app, ctx);
  registerSpeechRoute(app, ctx);
  registerControlRoutes(app, ctx);
  return app;
}
