import type { ToolParameters } from "./tool-arguments.js";

/** HTTP methods a tenant tool may use. */
export const HTTP_TOOL_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type HttpToolMethod = (typeof HTTP_TOOL_METHODS)[number];

/** Tools the agent itself provides; a tenant tool may not take their names. */
export const BUILT_IN_TOOL_NAMES = ["handoff_to_human", "lookup_knowledge"] as const;

/** Defaults and bounds of a tool's settings. */
export const HTTP_TOOL_LIMITS = {
  defaultTimeoutMs: 5000,
  minTimeoutMs: 100,
  maxTimeoutMs: 60_000,
  defaultMaxResponseBytes: 64 * 1024,
  maxMaxResponseBytes: 1024 * 1024,
} as const;

/**
 * A tenant HTTP tool, checked and with its defaults filled in (see
 * `parseTenantTools`). `headers` hold resolved secrets: never log a definition.
 */
export interface HttpToolDefinition {
  /** What the model calls it: `^[a-zA-Z0-9_-]{1,64}$`, unique per tenant. */
  readonly name: string;
  /** What the model reads to decide when to call it; 1–1024 characters. */
  readonly description: string;
  /** JSON Schema (draft-07) of the arguments; undeclared properties are removed before a call. */
  readonly parameters: ToolParameters;
  /** Default GET: arguments go in the query string; otherwise in a JSON body. */
  readonly method: HttpToolMethod;
  /** Absolute http(s) URL. */
  readonly url: string;
  /** Header name → value, `{ env }` references already resolved. */
  readonly headers: Readonly<Record<string, string>>;
  /** Whole call, connect to last body byte, ms; default 5000. */
  readonly timeoutMs: number;
  /** Most body bytes read; longer answers are cut there. Default 65536. */
  readonly maxResponseBytes: number;
  /** The call changes something: it carries an Idempotency-Key. Default false; true when `confirm`. */
  readonly sideEffects: boolean;
  /** The customer must confirm before the call (enforced by the agent, not by `executeHttpTool`). */
  readonly confirm: boolean;
  /**
   * Loopback, link-local, private and metadata networks this tool may reach
   * (CIDRs or addresses, see egress-policy.ts); public addresses need no entry. Default none.
   */
  readonly allowNetworks: readonly string[];
}
