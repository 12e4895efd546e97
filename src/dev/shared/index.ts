export { closeUnusedConnectionsOnClose } from "./connection-tracker.js";
export { createSeededRandom } from "./seeded-random.js";
