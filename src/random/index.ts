export { createSeededRandom } from "./seeded-random.js";
