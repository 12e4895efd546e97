export { createSeededRandom } from "../../random/index.js";
export { numberFlag, parseLatencyFlag } from "./cli-values.js";
export { closeUnusedConnectionsOnClose } from "./connection-tracker.js";
export { createHeldRequests, type HeldRequests } from "./held-requests.js";
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
