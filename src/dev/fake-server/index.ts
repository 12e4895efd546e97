export { createSeededRandom } from "../../random/index.js";
export { closeUnusedConnectionsOnClose } from "./connection-tracker.js";
