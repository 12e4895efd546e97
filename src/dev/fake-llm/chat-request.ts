/** A tool call an assistant message made, as the fake reads it. */
export interface ChatToolCall {
  readonly id: string;
  readonly name: string;
  /** The JSON string the model wrote. */
  readonly arguments: string;
}

export type ChatRole = "system" | "developer" | "user" | "assistant" | "tool";

/**
 * An image part of a user message. A `data:` URL is decoded (its declared
 * type, size and sha256 are kept); an http(s) URL is only noted: the fake
 * fetches nothing.
 */
export type ChatImage =
  | {
      readonly source: "data";
      /** The type the data URL declares (image/png…). */
      readonly mimeType: string;
      /** Decoded bytes. */
      readonly bytes: number;
      /** Hex sha256 of the decoded bytes: what a rule's `imageSha256` matches. */
      readonly sha256: string;
      readonly detail: "auto" | "low" | "high";
    }
  | { readonly source: "url"; readonly url: string; readonly detail: "auto" | "low" | "high" };

/** `response_format`: plain text, any JSON object, or one matching a named schema. */
export type ResponseFormat =
  | { readonly type: "text" }
  | { readonly type: "json_object" }
  | {
      readonly type: "json_schema";
      readonly name: string;
      readonly schema: Record<string, unknown>;
      readonly strict: boolean;
    };

/** One message of a request, its content flattened to text. */
export interface ChatMessage {
  readonly role: ChatRole;
  /** The string content, or the text parts joined; "" when null. */
  readonly text: string;
  /** Assistant messages only. */
  readonly toolCalls: readonly ChatToolCall[];
  /** Tool messages only: the call this message answers. */
  readonly toolCallId?: string;
  /** User messages only: the image parts, in order. */
  readonly images: readonly ChatImage[];
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
  /** Undefined when the request sets none (plain text). */
  readonly responseFormat: ResponseFormat | undefined;
}
