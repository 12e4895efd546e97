export { canonicalJson } from "./canonical-json.js";
export { agentToolErrorCatalog, ToolConfigError } from "./errors.js";
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
