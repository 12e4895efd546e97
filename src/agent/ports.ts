/**
 * One part of a user message's content, in OpenAI's wire shape. An image is
 * always a `data:` URL of bytes the gateway holds (the client refuses any
 * other URL): a Meta media URL needs the tenant's token and must never reach
 * a model provider.
 */
export type ChatContentPart =
  | { readonly type: "text"; readonly text: string }
  | {
      readonly type: "image_url";
      readonly image_url: {
        /** `data:<mime>;base64,<bytes>`. */
        readonly url: string;
        /** How closely the model looks (OpenAI's default "auto"); "low" costs a fixed few tokens. */
        readonly detail?: "auto" | "low" | "high";
      };
    };

/** One message of a chat-completions conversation (OpenAI's wire roles). */
export type ChatMessage =
  | { readonly role: "system"; readonly content: string }
  /** A user message is text, or text and image parts (for a model with vision). */
  | { readonly role: "user"; readonly content: string | readonly ChatContentPart[] }
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
  /**
   * Asks for structured output: the answer's content is one JSON object
   * matching `schema` (OpenAI's `json_schema` response format, strict). The
   * schema must suit strict mode: every object lists all its properties in
   * `required` and sets `additionalProperties: false`; optional values are
   * nullable. The caller still validates what comes back.
   */
  readonly responseFormat?: ResponseFormat;
}

/** A named JSON schema the completion's content must match. */
export interface ResponseFormat {
  /** Letters, digits, `_` and `-`, at most 64. */
  readonly name: string;
  readonly schema: Readonly<Record<string, unknown>>;
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

/** A side-effect tool call waiting for the customer's Confirm. */
export interface PendingAction {
  readonly id: string;
  readonly toolName: string;
  /** The validated arguments, as the model gave them. */
  readonly args: Readonly<Record<string, unknown>>;
  /** Derived from the turn that proposed it, so a retried confirmation repeats no effect. */
  readonly idempotencyKey: string;
  /** What the customer was asked to confirm. */
  readonly summary: string;
  readonly createdAt: number;
}

/** What claiming a pending action found. */
export type ClaimResult =
  | { readonly kind: "claimed"; readonly action: PendingAction }
  /** Claimed before by another message (a double tap): the action already ran. */
  | { readonly kind: "already"; readonly action: PendingAction }
  | { readonly kind: "missing" };

/**
 * Pending confirmations, per conversation. A conversation is one customer of
 * one business number, so an action can only be confirmed from the
 * conversation (the customer) it was proposed to.
 */
export interface PendingActionStore {
  /** Stores the action (a fresh id) for `ttlMs`. */
  create(conversationKey: string, action: Omit<PendingAction, "id">, ttlMs: number): Promise<PendingAction>;
  /**
   * Claims the action for the message `by` (the Confirm or Cancel tap). The
   * same message claiming again (a retried turn) gets it again, so a crash
   * after the claim cannot lose the confirmation; any other message finds it
   * `already` claimed. Claimed actions stay until their TTL ends.
   */
  claim(conversationKey: string, id: string, by: string): Promise<ClaimResult>;
}

/**
 * A per-tenant cap on agent turns running at once, across every worker
 * process. A holder renews its slot while its turn runs; a dead worker's
 * slot is free again `leaseMs` after its last renewal.
 */
export interface TenantSlots {
  /** How long a slot is held without renewal, ms. */
  readonly leaseMs: number;
  /** A token when one of the tenant's `limit` slots was free, else undefined. */
  acquire(tenantId: string, limit: number): Promise<string | undefined>;
  /** Renews the slot for another `leaseMs` if `token` still holds it. */
  extend(tenantId: string, token: string): Promise<void>;
  release(tenantId: string, token: string): Promise<void>;
}

/** Tokens a tenant's agent used today (UTC), against its daily budget. */
export interface TokenBudget {
  spentToday(tenantId: string): Promise<number>;
  record(tenantId: string, tokens: number): Promise<void>;
}

/** Where the agent keeps its shared state: agent slots, pending confirmations, token budgets. */
export interface AgentStores {
  readonly slots: TenantSlots;
  readonly pending: PendingActionStore;
  readonly budget: TokenBudget;
}
