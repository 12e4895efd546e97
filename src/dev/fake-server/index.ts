export { createSeededRandom } from "../../random/index.js";
export {
  type FlagValues,
  isWhole,
  numberFlag,
  parseLatencyFlag,
  portFlag,
  readFlags,
  readJsonFlagFile,
} from "./cli-values.js";
export {
  controlBadRequest,
  controlPatch,
  readControlJson,
  registerServiceControlRoutes,
} from "./control-routes.js";
export { createFakeServerApp, listenForUrl } from "./fake-server-app.js";
export { createHeldRequests, type HeldRequests } from "./held-requests.js";
export { answerErrorsAsOpenAi } from "./openai-error-handlers.js";
export { applyServiceFaults, bearerKey, type FaultVerdict } from "./serve-faults.js";
export {
  checkApiKeyFlag,
  parseServiceFlags,
  SERVICE_FLAG_OPTIONS,
  serviceOptionsOf,
} from "./service-cli.js";
export {
  createServiceCore,
  type ServiceCore,
  type ServiceFaultOptions,
  type ServiceHandle,
  serviceHandle,
} from "./service-core.js";
export {
  createFaults,
  FAULT_STATUSES,
  type FaultStatus,
  type Faults,
  faultPatchSchema,
  type LatencySetting,
  latencySchema,
  type ServiceFaultPatch,
  type ServiceFaultSettings,
} from "./service-faults.js";
