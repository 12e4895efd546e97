export { demoBanner } from "./demo-banner.js";
export { demoEnv } from "./demo-env.js";
export { DEMO_LLM_MODEL, DEMO_LLM_RULES } from "./demo-llm-rules.js";
export {
  DEMO_FILE_NAME,
  DEMO_PHONE_NUMBER_ID,
  type DemoSecrets,
  type DemoState,
  demoFilePath,
  loadOrCreateDemoState,
  readDemoState,
} from "./demo-state.js";
export { DEMO_DEFAULT_TRANSCRIPT, DEMO_TRANSCRIPTS_FILE, demoTranscripts } from "./demo-stt.js";
export { describeSentMessage } from "./describe-sent.js";
export { DemoError, demoErrorCatalog } from "./errors.js";
export {
  type SimulateDeps,
  type SimulatedReply,
  type SimulateOptions,
  type SimulateResult,
  type SimulateTarget,
  simulate,
  VOICE_NOTE_MIME_TYPE,
} from "./simulate.js";
export {
  DEFAULT_SIMULATE_FROM,
  DEFAULT_SIMULATE_TIMEOUT_MS,
  MAX_SIMULATE_VOICE_BYTES,
  parseSimulateArgs,
  SIMULATE_USAGE,
  type SimulateArgs,
  type SimulateMessage,
} from "./simulate-args.js";
export { runSimulateCommand, type SimulateCommandIo } from "./simulate-command.js";
export { resolveSimulateTarget } from "./simulate-target.js";
export { type RunningDemo, type StartDemoOptions, startDemo } from "./start-demo.js";
