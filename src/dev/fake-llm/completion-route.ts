import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { applyServiceFaults, bearerKey } from "../fake-server/index.js";
import type { ChatRequest } from "./chat-request.js";
import { type ComposedReply, composeReply } from "./compose-reply.js";
import type { FakeLlmContext } from "./fake-llm-context.js";
import {
  faultError,
  InvalidRequest,
  invalidRequest,
  type OpenAiErrorReply,
  shuttingDown,
  unauthorized,
} from "./openai-error.js";
import { type FakeLlmRequestRecord, recordableHeaders } from "./records.js";
import { countUsage } from "./usage.js";
import { validateChatRequest } from "./validate-chat-request.js";

function parseJson(raw: unknown): { ok: true; value: unknown } | { ok: false } {
  if (!Buffer.isBuffer(raw) || raw.length === 0) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(raw.toString("utf8")) };
  } catch {
    return { ok: false };
  }
}

function checkKey(ctx: FakeLlmContext, request: FastifyRequest): OpenAiErrorReply | undefined {
  if (ctx.apiKey === undefined) return undefined;
  const key = bearerKey(request);
  return key === ctx.apiKey ? undefined : unauthorized(key !== undefined);
}

/** What a valid request carried beyond its text, for the record. */
function requestFacts(chat: ChatRequest): Pick<FakeLlmRequestRecord, "images" | "responseFormat"> {
  const images = chat.messages.flatMap((message) => message.images);
  const format = chat.responseFormat;
  return {
    ...(images.length === 0 ? {} : { images }),
    ...(format === undefined
      ? {}
      : {
          responseFormat: format.type === "json_schema" ? { type: format.type, name: format.name } : format,
        }),
  };
}

function completionBody(ctx: FakeLlmContext, chat: ChatRequest, composed: ComposedReply) {
  const toolCalls = composed.toolCalls.map((call) => ({
    id: ctx.ids.toolCall(),
    type: "function" as const,
    function: { name: call.name, arguments: call.arguments },
  }));
  return {
    id: ctx.ids.completion(),
    object: "chat.completion",
    created: Math.floor(ctx.now() / 1000),
    model: chat.model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: composed.content,
          refusal: null,
          ...(toolCalls.length === 0 ? {} : { tool_calls: toolCalls }),
        },
        logprobs: null,
        finish_reason: composed.finishReason,
      },
    ],
    usage: countUsage(chat, composed),
    system_fingerprint: "fp_sharpsharp_fake",
  };
}

/**
 * `POST /v1/chat/completions` (and `/chat/completions`). In order: the API
 * key, then OpenAI's validation (both answered at once), then the hang
 * faults, then failNext/errorRate, then the latency, then the scripted answer.
 * A client that gives up while held or delayed is recorded `abandoned`.
 */
export function registerCompletionRoute(app: FastifyInstance, ctx: FakeLlmContext): void {
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const receivedAt = ctx.now();
    const parsed = parseJson(request.body);
    const seq = ctx.records.add({
      method: request.method,
      path: request.url,
      headers: recordableHeaders(request.headers),
      body: parsed.ok ? parsed.value : undefined,
      receivedAt,
    });
    const requestId = ctx.ids.request();
    const send = (
      status: number,
      body: unknown,
      extra: Pick<FakeLlmRequestRecord, "error" | "rule"> = {},
    ) => {
      const answeredAt = ctx.now();
      ctx.records.update(seq, { outcome: "answered", status, answeredAt, ...extra });
      request.log.debug({ seq, status, ...extra }, "fake LLM answered");
      return reply
        .code(status)
        .header("x-request-id", requestId)
        .header("openai-processing-ms", String(answeredAt - receivedAt))
        .send(body);
    };
    const refuse = (error: OpenAiErrorReply) => {
      for (const [name, value] of Object.entries(error.headers ?? {})) reply.header(name, value);
      return send(error.status, error.body, { error: error.body.error.code ?? error.body.error.type });
    };

    const keyProblem = checkKey(ctx, request);
    if (keyProblem !== undefined) return refuse(keyProblem);
    let chat: ChatRequest;
    try {
      if (!parsed.ok) {
        throw new InvalidRequest(
          "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your " +
            "HTTP library correctly. The OpenAI API expects a JSON payload.)",
        );
      }
      chat = validateChatRequest(parsed.value);
    } catch (error) {
      if (error instanceof InvalidRequest) return refuse(invalidRequest(error));
      throw error;
    }
    ctx.records.update(seq, requestFacts(chat));

    const verdict = await applyServiceFaults(ctx, request, reply, (outcome) =>
      ctx.records.update(seq, { outcome }),
    );
    if (verdict.kind === "gone") return reply;
    if (verdict.kind === "shutting-down") return refuse(shuttingDown());
    if (verdict.kind === "fail") return refuse(faultError(verdict.status));
    const composed = composeReply(chat, ctx.rules());
    return send(200, completionBody(ctx, chat, composed), { rule: composed.rule });
  };
  app.post("/v1/chat/completions", handler);
  app.post("/chat/completions", handler);
}
