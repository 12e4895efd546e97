export {
  type ConsoleActions,
  createConsoleActions,
  SERVICE_WINDOW_MS,
  serviceWindowOf,
} from "./console-actions.js";
export { type ConsoleApiOptions, consoleRoutes, registerConsole } from "./console-api.js";
export type { ConsoleDeps } from "./console-deps.js";
export { SESSION_COOKIE, type SessionSettings } from "./console-session.js";
export { createDashboardSource, type DashboardDeps, type DashboardSource } from "./dashboard-figures.js";
export { ConsoleError, consoleErrorCatalog } from "./errors.js";
export { openApiDocument, openApiPath } from "./openapi.js";
export { createApiToken, createOperatorAccount, type NewOperator } from "./operator-accounts.js";
export { hashPassword, passwordProblem, verifyPassword } from "./passwords.js";
export type { ConsoleEvent, ConsoleEventBus, ConsoleEventListener } from "./ports.js";
export { publishingMessageStore } from "./publishing-message-store.js";
export { createSimulator, type SimulatedMessage, type Simulator, type SimulatorChaos } from "./simulator.js";
export { createTemplateCatalog, type TemplateCatalog, type TemplateList } from "./template-catalog.js";
