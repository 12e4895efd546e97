export {
  type AppConfig,
  type CoalesceConfig,
  DEFAULT_TENANT_ID,
  type RedisCredentials,
  type RedisNodeAddress,
  type RedisServerConfig,
  type RedisTlsConfig,
  type ServerLimits,
  type TenantConfig,
} from "./app-config.js";
export { deepFreeze } from "./deep-freeze.js";
export { type LogLevel, SECRET_ENV_NAMES, type TraceSamplerName } from "./env-schema.js";
export { ConfigError, configErrorCatalog } from "./errors.js";
export {
  GRAPH_SEND_TIMEOUT_MS,
  type LoadConfigOptions,
  loadApiClientEnv,
  loadConfig,
  loadConfigFromProcess,
  loadDevToolEnv,
} from "./load-config.js";
export { secretValuesOf } from "./secret-values.js";
export {
  chooseStartMode,
  DEMO_PASSTHROUGH_NAMES,
  type DemoPassthroughName,
  loadStartChoiceFromProcess,
  type StartChoice,
} from "./start-mode.js";
export type { TracingConfig } from "./tracing-config.js";
