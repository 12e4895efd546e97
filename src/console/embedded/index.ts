export { createInProcessEventBus } from "./in-process-event-bus.js";
