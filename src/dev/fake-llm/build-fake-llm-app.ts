import type { FastifyInstance } from "fastify";
import type { Logger } from "../../observability/index.js";
import { answerErrorsAsOpenAi, createFakeServerApp } from "../fake-server/index.js";
import { registerCompletionRoute } from "./completion-route.js";
import { registerControlRoutes } from "./control-routes.js";
import type { FakeLlmContext } from "./fake-llm-context.js";
import { invalidUrl } from "./openai-error.js";

/** Long conversations with tool results run to a few MiB; past 8 MiB something is wrong. */
const BODY_LIMIT_BYTES = 8 * 1024 * 1024;

/** Builds the fake LLM's HTTP app without listening (createFakeLlm listens). */
export function buildFakeLlmApp(ctx: FakeLlmContext, logger: Logger): FastifyInstance {
  const app = createFakeServerApp(logger, BODY_LIMIT_BYTES);
  answerErrorsAsOpenAi(app, "the fake LLM", invalidUrl);
  registerCompletionRoute(app, ctx);
  registerControlRoutes(app, ctx);
  return app;
}
