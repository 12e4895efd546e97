export {
  createEmbeddedQueues,
  type EmbeddedQueueSignals,
  type EmbeddedQueues,
  type EmbeddedQueuesOptions,
} from "./embedded-inbound-queue.js";
export { createJobRunner, type JobRunner, type JobRunnerOptions } from "./job-runner.js";
export {
  createJobTable,
  DUE_JOBS_SQL,
  type JobRow,
  type JobState,
  type JobTable,
  type KeepOptions,
  type NewJob,
} from "./job-table.js";
