import type { ChatMessage, ChatRole, ChatToolCall } from "./chat-request.js";
import { isObject } from "./json-object.js";
import { InvalidRequest } from "./openai-error.js";
import { readContent } from "./validate-content-parts.js";

const ROLES: readonly ChatRole[] = ["system", "developer", "user", "assistant", "tool"];

function toolCalls(value: unknown, param: string): ChatToolCall[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    throw new InvalidRequest(`Invalid type for '${param}': expected an array.`, param, "invalid_type");
  }
  return value.map((call, index) => {
    const at = `${param}[${index}]`;
    const fn = isObject(call) ? call.function : undefined;
    if (!isObject(call) || typeof call.id !== "string" || call.id === "") {
      throw new InvalidRequest(
        `Missing required parameter: '${at}.id'.`,
        `${at}.id`,
        "missing_required_parameter",
      );
    }
    if (!isObject(fn) || typeof fn.name !== "string" || typeof fn.arguments !== "string") {
      throw new InvalidRequest(
        `Missing required parameter: '${at}.function' (with a name and an arguments string).`,
        `${at}.function`,
        "missing_required_parameter",
      );
    }
    return { id: call.id, name: fn.name, arguments: fn.arguments };
  });
}

function readMessage(raw: unknown, index: number): ChatMessage {
  const at = `messages[${index}]`;
  if (!isObject(raw)) {
    throw new InvalidRequest(`Invalid type for '${at}': expected an object.`, at, "invalid_type");
  }
  const role = raw.role;
  if (typeof role !== "string" || !ROLES.includes(role as ChatRole)) {
    throw new InvalidRequest(
      `Invalid value: '${String(role)}'. Supported values are: 'system', 'developer', 'user', 'assistant' and 'tool'.`,
      `${at}.role`,
      "invalid_value",
    );
  }
  const calls = role === "assistant" ? toolCalls(raw.tool_calls, `${at}.tool_calls`) : [];
  const { text, images } = readContent(
    raw.content,
    `${at}.content`,
    role as ChatRole,
    role !== "assistant" || calls.length === 0,
  );
  if (role !== "tool") return { role: role as ChatRole, text, toolCalls: calls, images };
  if (typeof raw.tool_call_id !== "string" || raw.tool_call_id === "") {
    throw new InvalidRequest(
      `Missing required parameter: '${at}.tool_call_id'.`,
      `${at}.tool_call_id`,
      "missing_required_parameter",
    );
  }
  return { role: "tool", text, toolCalls: [], toolCallId: raw.tool_call_id, images };
}

/**
 * The messages array, checked as OpenAI checks it: roles, contents, and
 * tool turns that pair up (every tool message answers a call of the
 * assistant message just before it; every such call gets its answer).
 */
export function validateMessages(value: unknown): ChatMessage[] {
  if (value === undefined) {
    throw new InvalidRequest(
      "Missing required parameter: 'messages'.",
      "messages",
      "missing_required_parameter",
    );
  }
  if (!Array.isArray(value)) {
    throw new InvalidRequest("Invalid type for 'messages': expected an array.", "messages", "invalid_type");
  }
  if (value.length === 0) {
    throw new InvalidRequest(
      "Invalid 'messages': empty array. Expected an array with minimum length 1.",
      "messages",
      "empty_array",
    );
  }
  const messages = value.map(readMessage);
  // Calls of the latest assistant message not yet answered, and where that message was.
  let pending = new Set<string>();
  let pendingAt = -1;
  const unanswered = () =>
    new InvalidRequest(
      "An assistant message with 'tool_calls' must be followed by tool messages responding to each " +
        `'tool_call_id'. The following tool_call_ids did not have response messages: ${[...pending].join(", ")}`,
      `messages.[${pendingAt}].role`,
    );
  for (const [index, message] of messages.entries()) {
    if (message.role === "tool") {
      if (message.toolCallId === undefined || !pending.delete(message.toolCallId)) {
        throw new InvalidRequest(
          "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          `messages.[${index}].role`,
        );
      }
      continue;
    }
    if (pending.size > 0) throw unanswered();
    pending = new Set(message.toolCalls.map((call) => call.id));
    pendingAt = index;
  }
  if (pending.size > 0) throw unanswered();
  return messages;
}
