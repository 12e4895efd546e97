import type { ChatRequest, ChatTool, ToolChoice } from "./chat-request.js";
import { isObject, type JsonObject } from "./json-object.js";
import { InvalidRequest } from "./openai-error.js";
import { validateMessages } from "./validate-messages.js";
import { validateResponseFormat } from "./validate-response-format.js";

/**
 * Request arguments OpenAI's chat completions accept. Anything else is
 * refused as OpenAI refuses it, so a typo (`max_token`) fails here rather
 * than against the real API.
 */
const KNOWN_ARGUMENTS = new Set([
  "model",
  "messages",
  "tools",
  "tool_choice",
  "parallel_tool_calls",
  "max_tokens",
  "max_completion_tokens",
  "temperature",
  "top_p",
  "n",
  "stream",
  "stream_options",
  "stop",
  "seed",
  "user",
  "presence_penalty",
  "frequency_penalty",
  "logit_bias",
  "logprobs",
  "top_logprobs",
  "response_format",
  "metadata",
  "store",
  "service_tier",
  "reasoning_effort",
  "verbosity",
  "prompt_cache_key",
  "safety_identifier",
  "modalities",
  "prediction",
]);

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** Thrown for a request the fake understands but chooses not to serve. */
function unsupported(message: string, param: string): InvalidRequest {
  return new InvalidRequest(message, param, "unsupported_parameter");
}

function numberIn(
  body: JsonObject,
  key: string,
  min: number,
  max: number,
  integer: boolean,
): number | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value) || (integer && !Number.isInteger(value))) {
    const kind = integer ? "an integer" : "a decimal";
    throw new InvalidRequest(
      `Invalid type for '${key}': expected ${kind}, but got ${typeof value} instead.`,
      key,
      "invalid_type",
    );
  }
  if (value < min) {
    throw new InvalidRequest(
      `Invalid '${key}': expected a value >= ${min}, but got ${value} instead.`,
      key,
      "invalid_value",
    );
  }
  if (value > max) {
    throw new InvalidRequest(
      `Invalid '${key}': expected a value <= ${max}, but got ${value} instead.`,
      key,
      "invalid_value",
    );
  }
  return value;
}

function validateTools(value: unknown): ChatTool[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value))
    throw new InvalidRequest("Invalid type for 'tools': expected an array.", "tools", "invalid_type");
  return value.map((tool, index) => {
    const at = `tools[${index}]`;
    if (!isObject(tool) || tool.type !== "function") {
      throw new InvalidRequest(
        `Invalid value for '${at}.type': expected 'function'.`,
        `${at}.type`,
        "invalid_value",
      );
    }
    const fn = tool.function;
    if (!isObject(fn)) {
      throw new InvalidRequest(
        `Missing required parameter: '${at}.function'.`,
        `${at}.function`,
        "missing_required_parameter",
      );
    }
    if (typeof fn.name !== "string" || !TOOL_NAME.test(fn.name)) {
      throw new InvalidRequest(
        `Invalid '${at}.function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]{1,64}$'.`,
        `${at}.function.name`,
        "invalid_value",
      );
    }
    if (fn.parameters !== undefined && !isObject(fn.parameters)) {
      throw new InvalidRequest(
        `Invalid type for '${at}.function.parameters': expected an object.`,
        `${at}.function.parameters`,
        "invalid_type",
      );
    }
    return {
      name: fn.name,
      ...(typeof fn.description === "string" ? { description: fn.description } : {}),
      ...(fn.parameters === undefined ? {} : { parameters: fn.parameters }),
    };
  });
}

function validateToolChoice(value: unknown, tools: readonly ChatTool[]): ToolChoice | undefined {
  if (value === undefined || value === null) return undefined;
  if (tools.length === 0) {
    throw new InvalidRequest(
      "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.",
      "tool_choice",
    );
  }
  if (value === "none" || value === "auto" || value === "required") return value;
  const fn = isObject(value) && value.type === "function" ? value.function : undefined;
  if (!isObject(fn) || typeof fn.name !== "string") {
    throw new InvalidRequest(
      "Invalid value for 'tool_choice': expected 'none', 'auto', 'required' or {type: 'function', function: {name}}.",
      "tool_choice",
      "invalid_value",
    );
  }
  const name = fn.name;
  if (!tools.some((tool) => tool.name === name)) {
    throw new InvalidRequest(
      `Tool choice '${name}' was not found in 'tools'.`,
      "tool_choice",
      "invalid_value",
    );
  }
  return { name };
}

/** A chat-completions body checked as OpenAI checks it; throws InvalidRequest. */
export function validateChatRequest(body: unknown): ChatRequest {
  if (!isObject(body)) {
    throw new InvalidRequest(
      "We could not parse the JSON body of your request. The body must be a JSON object.",
    );
  }
  for (const key of Object.keys(body)) {
    if (!KNOWN_ARGUMENTS.has(key)) throw new InvalidRequest(`Unrecognized request argument supplied: ${key}`);
  }
  if (typeof body.model !== "string" || body.model.trim() === "") {
    throw new InvalidRequest("you must provide a model parameter");
  }
  if (body.stream === true) throw unsupported("streaming is not supported by the fake", "stream");
  const n = numberIn(body, "n", 1, 128, true);
  if (n !== undefined && n !== 1) throw unsupported("the fake answers with one choice: 'n' must be 1", "n");
  const messages = validateMessages(body.messages);
  const tools = validateTools(body.tools);
  numberIn(body, "temperature", 0, 2, false);
  numberIn(body, "top_p", 0, 1, false);
  const maxTokens = numberIn(body, "max_tokens", 1, Number.MAX_SAFE_INTEGER, true);
  const maxCompletionTokens = numberIn(body, "max_completion_tokens", 1, Number.MAX_SAFE_INTEGER, true);
  return {
    model: body.model,
    messages,
    tools,
    toolsJson: tools.length === 0 ? "" : JSON.stringify(body.tools),
    toolChoice: validateToolChoice(body.tool_choice, tools),
    maxTokens: maxCompletionTokens ?? maxTokens,
    responseFormat: validateResponseFormat(body.response_format, messages),
  };
}
