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
export { answerErrorsAsOpenAi } from "./openai-error-handlers.js";
export { applyServiceFaults, bearerKey, type FaultVerdict } from "./serve-faults.js";
export { type FakeCliParse, type ListenAddress, parseServiceArgs } from "./service-cli.js";
export { type ServiceContext, serviceContext } from "./service-context.js";
export { createServiceCore, type ServiceCore, type ServiceOptions } from "./service-core.js";
export {
  FAULT_STATUSES,
  type FaultStatus,
  faultPatchSchema,
  type LatencySetting,
  latencySchema,
  type ServiceFaultPatch,
  type ServiceFaultSettings,
} from "./service-faults.js";
export { type ServiceHandle, serviceHandle } from "./service-handle.js";
