/** A tool call an assistant message made, as the fake reads it. */
export interface ChatToolCall {
  readonly id: string;
  readonly name: string;
  /** The JSON string the model wrote. */
  readonly arguments: string;
}

export type ChatRole = "system" | "developer" | "user" | "assistant" | "tool";

/** One message of a request, its content flattened to text. */
export interface ChatMessage {
  readonly role: ChatRole;
  /** The string content, or the text parts joined; "" when null. */
  readonly text: string;
  /** Assistant messages only. */
  readonly toolCalls: readonly ChatToolCall[];
  /** Tool messages only: the call this message answers. */
  readonly toolCallId?: string;
}

/** A function the client offers the model. */
export interface ChatTool {
  readonly name: string;
  readonly description?: string;
  readonly parameters?: Record<string, unknown>;
}

/** `tool_choice`: a named function is `{ name }`. */
export type ToolChoice = "none" | "auto" | "required" | { readonly name: string };

/** A valid chat-completions request, as the fake needs it. */
export interface ChatRequest {
  readonly model: string;
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ChatTool[];
  /** `JSON.stringify` of the `tools` array as sent ("" without tools): what the tools cost in tokens. */
  readonly toolsJson: string;
  readonly toolChoice: ToolChoice | undefined;
  /** `max_completion_tokens`, else `max_tokens`. */
  readonly maxTokens: number | undefined;
}
