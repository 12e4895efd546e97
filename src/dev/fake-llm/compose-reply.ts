import type { ChatRequest } from "./chat-request.js";
import type { CompiledRule } from "./rules.js";
import { schemaInstance } from "./schema-instance.js";

/** The longest tool result the default answer quotes, in characters. */
export const DEFAULT_TOOL_RESULT_CHARS = 500;

export interface ComposedToolCall {
  readonly name: string;
  /** JSON string, as OpenAI sends arguments. */
  readonly arguments: string;
}

/** What the fake answers a request with, before ids and usage are added. */
export interface ComposedReply {
  readonly content: string | null;
  readonly toolCalls: readonly ComposedToolCall[];
  readonly finishReason: "stop" | "tool_calls" | "length";
  /** The rule's index; `default` when none matched; `forced` when tool_choice made the fake call a tool. */
  readonly rule: number | "default" | "forced";
}

/** What the rules look at in a request. */
interface Situation {
  readonly lastUser: string;
  /** Content of the last tool message anywhere in the conversation. */
  readonly toolResult: string;
  /** Name of the tool whose result is the last message; undefined when the last message is not a tool result. */
  readonly afterTool: string | undefined;
  readonly offered: ReadonlySet<string>;
  /** sha256 of each data-URL image in the last user message. */
  readonly images: ReadonlySet<string>;
  /** The json_schema's name, when the request asks for one. */
  readonly schemaName: string | undefined;
}

function situation(request: ChatRequest): Situation {
  const { messages } = request;
  const last = messages[messages.length - 1];
  const lastUserMessage = messages.findLast((message) => message.role === "user");
  const lastUser = lastUserMessage?.text ?? "";
  const images = new Set(
    (lastUserMessage?.images ?? []).flatMap((image) => (image.source === "data" ? [image.sha256] : [])),
  );
  const format = request.responseFormat;
  const toolResult = messages.findLast((message) => message.role === "tool")?.text ?? "";
  let afterTool: string | undefined;
  if (last?.role === "tool") {
    const call = messages.flatMap((message) => message.toolCalls).find((c) => c.id === last.toolCallId);
    afterTool = call?.name;
  }
  return {
    lastUser,
    toolResult,
    afterTool,
    offered: new Set(request.tools.map((tool) => tool.name)),
    images,
    schemaName: format?.type === "json_schema" ? format.name : undefined,
  };
}

function fill(template: string, at: Situation): string {
  return template.replace(/\{\{\s*(lastUser|toolResult)\s*\}\}/g, (_match, name: string) =>
    name === "lastUser" ? at.lastUser : at.toolResult,
  );
}

/** Placeholders filled in every string inside tool arguments, so a rule can pass the customer's words on. */
function fillDeep(value: unknown, at: Situation): unknown {
  if (typeof value === "string") return fill(value, at);
  if (Array.isArray(value)) return value.map((item) => fillDeep(item, at));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fillDeep(item, at)]));
  }
  return value;
}

function matches(rule: CompiledRule, at: Situation): boolean {
  if (rule.always) return true;
  // A rule without afterTool answers the customer, never a tool result (so it cannot loop on its own call).
  if (rule.afterTool !== at.afterTool) return false;
  if (rule.toolOffered !== undefined && !at.offered.has(rule.toolOffered)) return false;
  if (rule.imageSha256 !== undefined && !at.images.has(rule.imageSha256)) return false;
  if (rule.responseFormat !== undefined && rule.responseFormat !== at.schemaName) return false;
  return rule.lastUser === undefined || rule.lastUser.test(at.lastUser);
}

/** Whether a real model could give this reply: tool_choice and the offered tools decide. */
function possible(rule: CompiledRule, request: ChatRequest, at: Situation): boolean {
  const choice = request.toolChoice;
  if (rule.reply.kind !== "toolCalls") return choice === undefined || choice === "auto" || choice === "none";
  if (choice === "none") return false;
  return rule.reply.toolCalls.every(
    (call) => at.offered.has(call.name) && (typeof choice !== "object" || call.name === choice.name),
  );
}

function truncateToTokens(content: string, maxTokens: number | undefined): { content: string; cut: boolean } {
  if (maxTokens === undefined || content.length <= maxTokens * 4) return { content, cut: false };
  return { content: content.slice(0, maxTokens * 4), cut: true };
}

function contentReply(
  template: string,
  request: ChatRequest,
  at: Situation,
  rule: ComposedReply["rule"],
): ComposedReply {
  const { content, cut } = truncateToTokens(fill(template, at), request.maxTokens);
  return { content, toolCalls: [], finishReason: cut ? "length" : "stop", rule };
}

/** A JSON answer, cut (and so invalid) as a real model's is when max tokens run out. */
function jsonReply(value: unknown, request: ChatRequest, rule: ComposedReply["rule"]): ComposedReply {
  const { content, cut } = truncateToTokens(JSON.stringify(value), request.maxTokens);
  return { content, toolCalls: [], finishReason: cut ? "length" : "stop", rule };
}

/**
 * The scripted answer to a valid request: the first rule that matches and
 * that a real model could give wins; else tool_choice `required` or a named
 * function forces a call (with `{}` arguments); else the default answer: for
 * structured output the plainest object its schema accepts (`{}` for
 * json_object), else an echo of the customer or of the last tool result.
 */
export function composeReply(request: ChatRequest, rules: readonly CompiledRule[]): ComposedReply {
  const at = situation(request);
  const rule = rules.find((candidate) => matches(candidate, at) && possible(candidate, request, at));
  if (rule !== undefined) {
    if (rule.reply.kind === "content") return contentReply(rule.reply.content, request, at, rule.index);
    if (rule.reply.kind === "json") return jsonReply(rule.reply.json, request, rule.index);
    const toolCalls = rule.reply.toolCalls.map((call) => ({
      name: call.name,
      arguments: JSON.stringify(fillDeep(call.arguments, at)),
    }));
    return { content: null, toolCalls, finishReason: "tool_calls", rule: rule.index };
  }
  const choice = request.toolChoice;
  if (choice === "required" || typeof choice === "object") {
    const name = typeof choice === "object" ? choice.name : (request.tools[0]?.name ?? "");
    return {
      content: null,
      toolCalls: [{ name, arguments: "{}" }],
      finishReason: "tool_calls",
      rule: "forced",
    };
  }
  const format = request.responseFormat;
  if (format?.type === "json_schema") return jsonReply(schemaInstance(format.schema), request, "default");
  if (format?.type === "json_object") return jsonReply({}, request, "default");
  if (at.afterTool !== undefined) {
    const quoted = { ...at, toolResult: [...at.toolResult].slice(0, DEFAULT_TOOL_RESULT_CHARS).join("") };
    return contentReply("Here is what I found: {{toolResult}}", request, quoted, "default");
  }
  return contentReply("(fake LLM) You said: {{lastUser}}", request, at, "default");
}
