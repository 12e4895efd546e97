export { createSeededRandom } from "../../shared/index.js";
export { closeUnusedConnectionsOnClose } from "./connection-tracker.js";
