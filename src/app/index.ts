export {
  type AdminCommand,
  type AdminCommandResult,
  generatedPassword,
  runAdminCommand,
} from "./admin-command.js";
export type { Backend, IngressPorts, JobHandlers, JobRunOptions, WorkerPorts } from "./backends/backend.js";
export {
  CAMPAIGN_USAGE,
  type CampaignCommandEnv,
  type CampaignCommandResult,
  runCampaignCommand,
} from "./campaign-command.js";
export { type ConversationModeCommand, runConversationModeCommand } from "./conversation-mode.js";
export { mainErrorCatalog, StartupError } from "./errors.js";
export { DEFAULT_RETENTION_DAYS, type MessageLog, openMessageLog, retentionDaysOf } from "./message-log.js";
export { type Pipeline, type PipelineOptions, type PipelineRunOptions, startPipeline } from "./pipeline.js";
export { startAll } from "./start-all.js";
export { type RunningConsole, startConsole } from "./start-console.js";
export { type RunningEmbedded, type StartEmbeddedOptions, startEmbedded } from "./start-embedded.js";
export {
  type RunningIngress,
  type StartIngressOptions,
  startIngress,
} from "./start-ingress.js";
export { type RunningWorker, type StartWorkerOptions, startWorker } from "./start-worker.js";
