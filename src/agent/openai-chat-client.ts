import OpenAI from "openai";
import type {
  ChatCompletionContentPart,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from "openai/resources/chat/completions";
import {
  type ChatContentPart,
  type ChatMessage,
  type LlmClient,
  type LlmCompletion,
  LlmError,
  type LlmRequest,
  type ToolSpec,
} from "./ports.js";

export interface OpenAiChatClientOptions {
  readonly baseUrl: string;
  readonly apiKey: string | undefined;
  /** The model when the request names none. */
  readonly model: string | undefined;
  /** One call's limit, ms; past it the call fails as retryable. */
  readonly timeoutMs: number;
  /** A label for metrics and logs ("primary", "fallback"). */
  readonly provider: string;
}

/**
 * Throws a TypeError for an image part whose URL is not a `data:` URL: only
 * bytes the gateway holds are sent, never a Meta media URL (it needs the
 * tenant's token) nor any other address a provider would fetch.
 */
function assertDataImages(request: LlmRequest): void {
  for (const message of request.messages) {
    if (message.role !== "user" || typeof message.content === "string") continue;
    for (const part of message.content) {
      if (part.type === "image_url" && !/^data:/i.test(part.image_url.url)) {
        throw new TypeError("an image sent to the model must be a data: URL of bytes the gateway holds");
      }
    }
  }
}

function partToWire(part: ChatContentPart): ChatCompletionContentPart {
  if (part.type === "text") return { type: "text", text: part.text };
  const { url, detail } = part.image_url;
  return { type: "image_url", image_url: detail === undefined ? { url } : { url, detail } };
}

function toWire(message: ChatMessage): ChatCompletionMessageParam {
  switch (message.role) {
    case "tool":
      return { role: "tool", tool_call_id: message.toolCallId, content: message.content };
    case "assistant":
      return {
        role: "assistant",
        content: message.content,
        ...(message.toolCalls === undefined || message.toolCalls.length === 0
          ? {}
          : {
              tool_calls: message.toolCalls.map((call) => ({
                id: call.id,
                type: "function" as const,
                function: { name: call.name, arguments: call.arguments },
              })),
            }),
      };
    case "user":
      return {
        role: "user",
        content: typeof message.content === "string" ? message.content : message.content.map(partToWire),
      };
    default:
      return { role: message.role, content: message.content };
  }
}

function toolToWire(tool: ToolSpec): ChatCompletionTool {
  return {
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: { ...tool.parameters } },
  };
}

/**
 * The LLM port over any OpenAI-compatible chat-completions endpoint (OpenAI,
 * Groq, Together, OpenRouter, vLLM, Ollama, LM Studio), on the official
 * `openai` client. The client's own retries are off: the agent decides
 * (fallback provider, deadline), so a slow provider cannot retry past the
 * turn's deadline.
 */
export function createOpenAiChatClient(options: OpenAiChatClientOptions): LlmClient {
  const client = new OpenAI({
    baseURL: options.baseUrl,
    // Local servers (Ollama, vLLM, the fake) need no key; the client insists on a string.
    apiKey: options.apiKey ?? "not-needed",
    maxRetries: 0,
    timeout: options.timeoutMs,
  });
  return {
    async complete(request, signal): Promise<LlmCompletion> {
      assertDataImages(request);
      const model = request.model ?? options.model;
      if (model === undefined) throw new LlmError("no model: set LLM_MODEL or the tenant's llm.model", false);
      try {
        const response = await client.chat.completions.create(
          {
            model,
            messages: request.messages.map(toWire),
            ...(request.tools.length === 0
              ? {}
              : { tools: request.tools.map(toolToWire), tool_choice: "auto" }),
            ...(request.responseFormat === undefined
              ? {}
              : {
                  response_format: {
                    type: "json_schema",
                    json_schema: {
                      name: request.responseFormat.name,
                      schema: { ...request.responseFormat.schema },
                      strict: true,
                    },
                  },
                }),
          },
          { signal },
        );
        const message = response.choices[0]?.message;
        if (message === undefined) throw new LlmError("the provider returned no choices", true);
        return {
          content: message.content ?? null,
          toolCalls: (message.tool_calls ?? []).flatMap((call) =>
            call.type === "function"
              ? [{ id: call.id, name: call.function.name, arguments: call.function.arguments }]
              : [],
          ),
          usage: {
            promptTokens: response.usage?.prompt_tokens ?? 0,
            completionTokens: response.usage?.completion_tokens ?? 0,
          },
          provider: options.provider,
          model: response.model || model,
        };
      } catch (error) {
        if (error instanceof LlmError) throw error;
        if (error instanceof OpenAI.APIUserAbortError) throw new LlmError("aborted", false);
        if (error instanceof OpenAI.APIConnectionTimeoutError)
          throw new LlmError(`timed out after ${options.timeoutMs} ms`, true);
        if (error instanceof OpenAI.APIConnectionError)
          throw new LlmError(`connection failed: ${error.message}`, true);
        if (error instanceof OpenAI.APIError) {
          const status = error.status;
          const retryable = status === undefined || status === 408 || status === 429 || status >= 500;
          throw new LlmError(`HTTP ${status ?? "?"}: ${error.message}`, retryable, status);
        }
        throw new LlmError((error as Error).message ?? String(error), false);
      }
    },
  };
}

/**
 * A primary provider with an optional fallback: a retryable failure of the
 * primary (timeout, 5xx, 429, network) is answered by the fallback instead.
 */
export function withFallback(primary: LlmClient, fallback: LlmClient | undefined): LlmClient {
  if (fallback === undefined) return primary;
  return {
    async complete(request, signal) {
      try {
        return await primary.complete(request, signal);
      } catch (error) {
        if (!(error instanceof LlmError) || !error.retryable || signal.aborted) throw error;
        // The fallback answers with its own model: a tenant's model override names the primary's.
        const { model: _primaryModel, ...rest } = request;
        return fallback.complete(rest, signal);
      }
    },
  };
}
