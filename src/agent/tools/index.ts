export { canonicalJson } from "./canonical-json.js";
export { createEgressAgent } from "./egress-agent.js";
export {
  createEgressPolicy,
  type EgressPolicy,
  type EgressVerdict,
  METADATA_ADDRESSES,
  type RefusedRange,
} from "./egress-policy.js";
export { agentToolErrorCatalog, EgressRefusedError, ToolConfigError } from "./errors.js";
export { GATEWAY_HEADERS, isReservedHeaderName } from "./gateway-headers.js";
export {
  type ExecuteHttpToolOptions,
  executeHttpTool,
  type HttpToolContext,
  type ToolFailureReason,
  type ToolOutcome,
} from "./http-tool.js";
export { type IdempotencyKeyInput, idempotencyKeyFor } from "./idempotency-key.js";
export {
  type ArgumentsCheck,
  type CompiledArguments,
  compileToolArguments,
  type ToolParameters,
} from "./tool-arguments.js";
export { parseTenantTools } from "./tool-config.js";
export {
  BUILT_IN_TOOL_NAMES,
  HTTP_TOOL_LIMITS,
  HTTP_TOOL_METHODS,
  type HttpToolDefinition,
  type HttpToolMethod,
} from "./tool-definition.js";
