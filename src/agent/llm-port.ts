/** One message of a chat-completions conversation (OpenAI's wire roles). */
export type ChatMessage =
  | { readonly role: "system" | "user"; readonly content: string }
  | { readonly role: "assistant"; readonly content: string | null; readonly toolCalls?: readonly ToolCall[] }
  | { readonly role: "tool"; readonly toolCallId: string; readonly content: string };

/** A function the model may call. */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  /** JSON schema of the arguments (type "object"). */
  readonly parameters: Readonly<Record<string, unknown>>;
}

export interface ToolCall {
  readonly id: string;
  readonly name: string;
  /** As the model wrote it: JSON text, possibly malformed. */
  readonly arguments: string;
}

export interface LlmUsage {
  readonly promptTokens: number;
  readonly completionTokens: number;
}

export interface LlmCompletion {
  readonly content: string | null;
  readonly toolCalls: readonly ToolCall[];
  readonly usage: LlmUsage;
  /** Which provider answered ("primary" or "fallback") and with which model. */
  readonly provider: string;
  readonly model: string;
}

export interface LlmRequest {
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ToolSpec[];
  /** Overrides the provider's default model (a tenant's `llm.model`). */
  readonly model?: string;
}

/** The LLM port: one chat completion, abortable. Adapters throw LlmError. */
export interface LlmClient {
  complete(request: LlmRequest, signal: AbortSignal): Promise<LlmCompletion>;
}

/** Why a completion failed; `retryable` failures (timeout, 5xx, 429, network) may go to a fallback provider. */
export class LlmError extends Error {
  override readonly name = "LlmError";
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
  ) {
    super(message);
  }
}
