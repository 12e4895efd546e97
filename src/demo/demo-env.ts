import type { DemoPassthroughName } from "../config/index.js";
import { DEMO_LLM_MODEL } from "./demo-llm-rules.js";
import type { DemoState } from "./demo-state.js";

type UserEnv = Readonly<Partial<Record<DemoPassthroughName, string>>>;

/** The user's passthrough variables over the demo's own defaults for them. */
export function demoBaseEnv(user: UserEnv): Record<string, string> {
  return {
    // Loopback unless the user asks otherwise: nothing outside this machine needs the demo.
    HOST: "127.0.0.1",
    // The terminal block is the demo's voice; info logs would bury it (LOG_LEVEL=info brings them back).
    LOG_LEVEL: "warn",
    ...user,
  };
}

/**
 * The environment the demo's gateway is configured from: the demo's secrets
 * and fakes, and the user's own passthrough variables (listen address, data
 * directory, log level, queue backend). Pure, for loadConfig.
 */
export function demoEnv(
  state: DemoState,
  fakes: { readonly graphUrl: string; readonly llmUrl: string; readonly sttUrl: string },
  user: UserEnv,
): Record<string, string> {
  return {
    ...demoBaseEnv(user),
    WHATSAPP_APP_SECRET: state.secrets.appSecret,
    WHATSAPP_VERIFY_TOKEN: state.secrets.verifyToken,
    WHATSAPP_TOKEN: state.secrets.graphToken,
    WHATSAPP_PHONE_NUMBER_ID: state.phoneNumberId,
    GRAPH_API_BASE_URL: fakes.graphUrl,
    LLM_BASE_URL: fakes.llmUrl,
    LLM_MODEL: DEMO_LLM_MODEL,
    // Voice notes are downloaded from the fake Graph API and heard by the fake speech server.
    STT_BASE_URL: fakes.sttUrl,
  };
}

/** A URL a client on this machine can use: a wildcard listen address becomes loopback. */
export function localUrl(url: string): string {
  return url.replace("://0.0.0.0:", "://127.0.0.1:").replace("://[::]:", "://[::1]:");
}
