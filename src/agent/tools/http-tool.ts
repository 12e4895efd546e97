import type { LookupFunction } from "node:net";
import type { Agent } from "undici";
import { createEgressAgent } from "./egress-agent.js";
import { createEgressPolicy, type RefusedRange } from "./egress-policy.js";
import { EgressRefusedError } from "./errors.js";
import { GATEWAY_HEADERS, isReservedHeaderName } from "./gateway-headers.js";
import { readCappedBody } from "./read-capped-body.js";
import { type CompiledArguments, compileToolArguments } from "./tool-arguments.js";
import type { HttpToolDefinition } from "./tool-definition.js";

/** Why a tool call gave no usable answer; safe to log and to count, unlike `error`. */
export type ToolFailureReason =
  | "invalid_arguments"
  | "refused"
  | "timeout"
  | "aborted"
  | "network"
  | "http_status"
  | "egress_refused";

/**
 * What a tool call came to. `body` and `error` are meant for the model as the
 * tool's result; `error` may quote the tenant's answer, so log `reason`, not `error`.
 */
export type ToolOutcome =
  | { readonly ok: true; readonly status: number; readonly body: string; readonly truncated: boolean }
  | {
      readonly ok: false;
      readonly reason: ToolFailureReason;
      readonly error: string;
      /** The HTTP status, when the tool answered with a non-2xx one. */
      readonly status?: number;
      /** What the egress policy refused (reason `egress_refused`). */
      readonly refused?: { readonly address: string; readonly range: RefusedRange };
    };

/** Who a call is for: set by the gateway from the verified sender, never from the model. */
export interface HttpToolContext {
  readonly tenantId: string;
  /** The verified sender (wa_id, or business-scoped user id). */
  readonly customerId: string;
  /** Required for `sideEffects` tools; see `idempotencyKeyFor`. */
  readonly idempotencyKey?: string;
}

export interface ExecuteHttpToolOptions {
  /** Cancels the call (the turn was abandoned); the outcome is then `aborted`. */
  readonly signal?: AbortSignal;
  /** Default: Node's global fetch. */
  readonly fetch?: typeof fetch;
  /** How host names are resolved at connect time; default dns.lookup (tests swap it to play DNS). */
  readonly lookup?: LookupFunction;
}

const ACCEPT = "application/json, text/plain";
const ERROR_SNIPPET_CHARS = 300;
// Enough bytes for 300 characters of any script (at most 4 bytes each in UTF-8).
const ERROR_SNIPPET_BYTES = ERROR_SNIPPET_CHARS * 4;

// Compiling a schema costs milliseconds; definitions are frozen, so their schema object is a stable key.
const compiledSchemas = new WeakMap<object, CompiledArguments>();

function compiledArgumentsOf(tool: HttpToolDefinition): CompiledArguments {
  let compiled = compiledSchemas.get(tool.parameters);
  if (compiled === undefined) {
    compiled = compileToolArguments(tool.parameters);
    compiledSchemas.set(tool.parameters, compiled);
  }
  return compiled;
}

// One agent per tool: its connections are checked against that tool's own allowNetworks.
const agents = new WeakMap<HttpToolDefinition, Agent>();
const agentsByLookup = new WeakMap<LookupFunction, WeakMap<HttpToolDefinition, Agent>>();

function agentOf(tool: HttpToolDefinition, lookup: LookupFunction | undefined): Agent {
  let cache = agents;
  if (lookup !== undefined) {
    cache = agentsByLookup.get(lookup) ?? new WeakMap();
    agentsByLookup.set(lookup, cache);
  }
  let agent = cache.get(tool);
  if (agent === undefined) {
    agent = createEgressAgent(createEgressPolicy(tool.allowNetworks ?? []), lookup);
    cache.set(tool, agent);
  }
  return agent;
}

function egressRefusalIn(error: unknown): EgressRefusedError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current !== null && typeof current === "object"; depth += 1) {
    if (current instanceof EgressRefusedError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

type ToolFailure = Extract<ToolOutcome, { ok: false }>;

const failure = (reason: ToolFailureReason, error: string, status?: number): ToolFailure =>
  status === undefined ? { ok: false, reason, error } : { ok: false, reason, error, status };

function queryValue(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

/** The request, with the gateway's headers over the tool's. Throws TypeError on an unusable URL or header. */
function buildRequest(
  tool: HttpToolDefinition,
  args: Record<string, unknown>,
  context: HttpToolContext,
): { url: URL; init: RequestInit } {
  const url = new URL(tool.url);
  const headers = new Headers();
  for (const [name, value] of Object.entries(tool.headers)) {
    if (!isReservedHeaderName(name)) headers.set(name, value);
  }
  headers.set("Accept", ACCEPT);
  headers.set(GATEWAY_HEADERS.tenant, context.tenantId);
  headers.set(GATEWAY_HEADERS.customer, context.customerId);
  if (tool.sideEffects && context.idempotencyKey !== undefined) {
    headers.set(GATEWAY_HEADERS.idempotencyKey, context.idempotencyKey);
  }
  if (tool.method === "GET") {
    headers.delete("Content-Type");
    for (const [name, value] of Object.entries(args)) {
      // A query parameter written in the configured URL is the tenant's, not the model's.
      if (!url.searchParams.has(name)) url.searchParams.append(name, queryValue(value));
    }
    return { url, init: { method: "GET", headers } };
  }
  headers.set("Content-Type", "application/json");
  return { url, init: { method: tool.method, headers, body: JSON.stringify(args) } };
}

function networkDetail(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause;
  const code = cause?.code ?? (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : "connection failed";
}

/** Checks the arguments and the context and builds the request; any failure is an outcome. */
function prepareCall(
  tool: HttpToolDefinition,
  args: unknown,
  context: HttpToolContext,
): { readonly ok: true; readonly request: { url: URL; init: RequestInit } } | ToolFailure {
  const misconfigured = failure("refused", `the tool ${tool.name} is misconfigured and cannot be used`);
  try {
    const compiled = compiledArgumentsOf(tool);
    if (!compiled.ok) return misconfigured;
    const checked = compiled.check(args);
    if (!checked.ok) return failure("invalid_arguments", `invalid arguments: ${checked.problem}`);
    if (context.tenantId === "" || context.customerId === "") {
      return failure("refused", "the tool cannot be called without a verified customer");
    }
    if (tool.sideEffects && (context.idempotencyKey ?? "") === "") {
      return failure("refused", "the tool changes data and cannot be called without an idempotency key");
    }
    return { ok: true, request: buildRequest(tool, checked.args, context) };
  } catch {
    // Only a definition built by hand gets here (an uncloneable schema, a header value fetch refuses).
    return misconfigured;
  }
}

/**
 * Calls a tenant HTTP tool for the model. Never rejects: bad arguments,
 * timeouts, network errors, non-2xx answers and cancellation all come back as
 * `{ ok: false, reason, error }`, the error written for the model to read.
 *
 * The arguments are checked against `tool.parameters` (undeclared properties
 * removed; nothing is sent when they are invalid); GET sends them as the query
 * string, other methods as a JSON body. The gateway's headers
 * (X-Sharpsharp-Tenant, X-Sharpsharp-Customer from `context`, Idempotency-Key
 * for `sideEffects` tools, Accept, Content-Type) override the tool's.
 * `tool.timeoutMs` bounds the whole call, body included; redirects are not
 * followed; a 2xx body is read up to `tool.maxResponseBytes` and cut there.
 * Every connection is checked against the tool's egress policy after DNS
 * (egress-agent.ts): a refused one is the outcome `egress_refused`.
 */
export async function executeHttpTool(
  tool: HttpToolDefinition,
  args: unknown,
  context: HttpToolContext,
  options: ExecuteHttpToolOptions = {},
): Promise<ToolOutcome> {
  const prepared = prepareCall(tool, args, context);
  if (!prepared.ok) return prepared;
  const { request } = prepared;
  const outer = options.signal;
  if (outer?.aborted === true) return failure("aborted", "cancelled before the tool was called");

  const controller = new AbortController();
  let abortedBy: "timeout" | "caller" | undefined;
  const abort = (by: "timeout" | "caller") => {
    abortedBy ??= by;
    controller.abort();
  };
  const timer = setTimeout(() => abort("timeout"), tool.timeoutMs);
  // A listener rather than AbortSignal.any: the caller's signal may outlive thousands of calls.
  const onOuterAbort = () => abort("caller");
  outer?.addEventListener("abort", onOuterAbort, { once: true });
  try {
    const response = await (options.fetch ?? fetch)(request.url, {
      ...request.init,
      redirect: "manual",
      signal: controller.signal,
      dispatcher: agentOf(tool, options.lookup),
    });
    const { status } = response;
    if (status >= 200 && status < 300) {
      const body = await readCappedBody(response.body, tool.maxResponseBytes);
      return { ok: true, status, body: body.text, truncated: body.truncated };
    }
    if (status >= 300 && status < 400) {
      await response.body?.cancel().catch(() => undefined);
      return failure("http_status", `HTTP ${status}: redirects are not followed`, status);
    }
    const snippet = await readCappedBody(response.body, ERROR_SNIPPET_BYTES);
    const text = Array.from(snippet.text.trim()).slice(0, ERROR_SNIPPET_CHARS).join("");
    return failure("http_status", text === "" ? `HTTP ${status}` : `HTTP ${status}: ${text}`, status);
  } catch (error) {
    if (abortedBy === "timeout") return failure("timeout", `timed out after ${tool.timeoutMs} ms`);
    if (abortedBy === "caller") return failure("aborted", "cancelled before the tool answered");
    const refusal = egressRefusalIn(error);
    if (refusal !== undefined) {
      return {
        ok: false,
        reason: "egress_refused",
        error: `refused: ${refusal.message}`,
        refused: { address: refusal.address, range: refusal.range },
      };
    }
    return failure("network", `network error (${networkDetail(error)})`);
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener("abort", onOuterAbort);
  }
}
