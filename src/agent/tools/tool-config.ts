import { z } from "zod";
import { deepFreeze } from "../../config/index.js";
import { createEgressPolicy, describeRange, parseNetwork } from "./egress-policy.js";
import { isReservedHeaderName } from "./gateway-headers.js";
import { compileToolArguments, type ToolParameters } from "./tool-arguments.js";
import {
  BUILT_IN_TOOL_NAMES,
  HTTP_TOOL_LIMITS,
  HTTP_TOOL_METHODS,
  type HttpToolDefinition,
} from "./tool-definition.js";

const envName = z
  .string()
  .regex(/^[A-Z_][A-Z0-9_]*$/, { error: "must name an environment variable (upper case, digits, '_')" });

const isHttpUrl = (url: string): boolean =>
  URL.canParse(url) && ["http:", "https:"].includes(new URL(url).protocol);

const headerValueSchema = z.union([
  z.string(),
  z.strictObject({ env: envName, prefix: z.string().optional() }),
]);

const toolSchema = z.strictObject({
  name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, {
    error: "must be 1–64 letters, digits, '_' or '-' (what LLM providers accept as a function name)",
  }),
  description: z.string().min(1).max(1024),
  parameters: z
    .looseObject({ type: z.literal("object") })
    .default(() => ({ type: "object" as const, properties: {} })),
  method: z.enum(HTTP_TOOL_METHODS).default("GET"),
  url: z.string().refine(isHttpUrl, { error: "must be an absolute http:// or https:// URL" }),
  headers: z.record(z.string(), headerValueSchema).default({}),
  timeoutMs: z
    .number()
    .int()
    .min(HTTP_TOOL_LIMITS.minTimeoutMs)
    .max(HTTP_TOOL_LIMITS.maxTimeoutMs)
    .default(HTTP_TOOL_LIMITS.defaultTimeoutMs),
  maxResponseBytes: z
    .number()
    .int()
    .min(1)
    .max(HTTP_TOOL_LIMITS.maxMaxResponseBytes)
    .default(HTTP_TOOL_LIMITS.defaultMaxResponseBytes),
  sideEffects: z.boolean().optional(),
  confirm: z.boolean().default(false),
  allowNetworks: z.array(z.string()).default([]),
});

type ToolEntry = z.output<typeof toolSchema>;

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// Framing and connection headers belong to the HTTP client; a configured one would break the request.
const CLIENT_HEADERS = new Set([
  "host",
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "proxy-connection",
  "upgrade",
  "te",
  "trailer",
  "expect",
]);
// Secrets are never written in the tenants file (docs/configuration.md); these names almost always hold one.
const SECRET_HEADER = /^(authorization|proxy-authorization|cookie)$|api[-_]?key|token|secret|password/i;

/** Checks one tool's headers and resolves their `{ env }` references. */
function resolveHeaders(
  headers: ToolEntry["headers"],
  readSecret: (envName: string) => string | undefined,
  problem: (path: string, message: string) => void,
): Record<string, string> {
  const resolved: Record<string, string> = {};
  const seen = new Set<string>();
  for (const [name, spec] of Object.entries(headers)) {
    const where = `headers.${name}`;
    const lower = name.toLowerCase();
    if (!HEADER_NAME.test(name)) problem(where, "is not a valid HTTP header name");
    else if (isReservedHeaderName(name)) {
      problem(where, "X-Sharpsharp-* and Idempotency-Key are set by the gateway itself on every call");
    } else if (CLIENT_HEADERS.has(lower)) problem(where, "is set by the HTTP client; remove it");
    if (seen.has(lower)) problem(where, "is given twice (header names are case-insensitive)");
    seen.add(lower);

    let value: string | undefined;
    if (typeof spec === "string") {
      if (SECRET_HEADER.test(name)) {
        problem(where, "looks like a secret, which is never written in the file; use { env: VARIABLE_NAME }");
      }
      value = spec;
    } else {
      const secret = readSecret(spec.env)?.trim();
      if (secret === undefined || secret === "") {
        problem(`${where}.env`, `names ${spec.env}, which is not set in the environment`);
      } else value = `${spec.prefix ?? ""}${secret}`;
    }
    // Never echo the value: it may be a secret.
    if (value !== undefined && /[\r\n\0]/.test(value)) problem(where, "holds a line break or NUL character");
    if (value !== undefined) resolved[name] = value;
  }
  return resolved;
}

function checkTool(
  entry: ToolEntry,
  readSecret: (envName: string) => string | undefined,
  problem: (path: string, message: string) => void,
): HttpToolDefinition {
  if ((BUILT_IN_TOOL_NAMES as readonly string[]).includes(entry.name)) {
    problem("name", `"${entry.name}" is a built-in tool of the agent; choose another name`);
  }
  const url = new URL(entry.url);
  if (url.username !== "" || url.password !== "") {
    problem("url", "must not hold a user name or password; put credentials in a header with { env }");
  }
  entry.allowNetworks.forEach((network, index) => {
    const parsed = parseNetwork(network);
    if ("problem" in parsed) problem(`allowNetworks.${index}`, parsed.problem);
  });
  // An address written in the URL can be judged now; a host name only when it is resolved, at each call.
  const literal = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const verdict = createEgressPolicy(entry.allowNetworks).check(literal);
  if (!verdict.allowed && verdict.range !== "invalid") {
    problem(
      "url",
      `${literal} is ${describeRange(verdict.range)}; list it in allowNetworks if the tool really runs there`,
    );
  }
  if (entry.confirm && entry.sideEffects === false) {
    problem("sideEffects", "a tool that needs confirmation changes something; remove sideEffects: false");
  }
  const compiled = compileToolArguments(entry.parameters as ToolParameters);
  if (!compiled.ok) {
    for (const { path, message } of compiled.problems) problem(path, message);
  }
  return {
    name: entry.name,
    description: entry.description,
    parameters: entry.parameters as ToolParameters,
    method: entry.method,
    url: entry.url,
    headers: resolveHeaders(entry.headers, readSecret, problem),
    timeoutMs: entry.timeoutMs,
    maxResponseBytes: entry.maxResponseBytes,
    // A call that writes changes something unless the tenant says otherwise: it carries an Idempotency-Key.
    sideEffects: entry.sideEffects ?? (entry.confirm || entry.method !== "GET"),
    confirm: entry.confirm,
    allowNetworks: entry.allowNetworks.map((network) => network.trim()),
  };
}

/**
 * Checks the `tools` list of a tenant's settings (docs/agent.md) and fills in the
 * defaults. Every problem is reported, as `tools.<i> (<name>).<field>: <what
 * to fix>`; secrets named by `{ env }` are read through `readSecret` and never
 * appear in a problem. `raw` undefined means no tools. The definitions
 * returned are frozen; those with problems are left out.
 */
export function parseTenantTools(
  raw: unknown,
  readSecret: (envName: string) => string | undefined,
): { tools: HttpToolDefinition[]; problems: string[] } {
  if (raw === undefined) return { tools: [], problems: [] };
  if (!Array.isArray(raw)) return { tools: [], problems: ["tools: must be a list of tools"] };
  const tools: HttpToolDefinition[] = [];
  const problems: string[] = [];
  const names = new Map<string, number>();
  raw.forEach((item: unknown, index) => {
    const name = (item as { name?: unknown } | null)?.name;
    const where = `tools.${index}${typeof name === "string" ? ` (${name})` : ""}`;
    const found: string[] = [];
    const problem = (path: string, message: string) => found.push(`${where}.${path}: ${message}`);
    const parsed = toolSchema.safeParse(item);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        if (issue.path.length === 0) found.push(`${where}: ${issue.message}`);
        else problem(issue.path.join("."), issue.message);
      }
    } else {
      const first = names.get(parsed.data.name);
      if (first !== undefined) problem("name", `"${parsed.data.name}" is already the name of tools.${first}`);
      else names.set(parsed.data.name, index);
      const tool = checkTool(parsed.data, readSecret, problem);
      if (found.length === 0) tools.push(deepFreeze(tool));
    }
    problems.push(...found);
  });
  return { tools, problems };
}
