import { randomBytes } from "node:crypto";
import { resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { startAll } from "../app/index.js";
import type { DemoPassthroughName } from "../config/index.js";
import { loadConfig } from "../config/index.js";
import { createFakeGraphApi, createFakeLlm, createFakeStt } from "../dev/index.js";
import { createLogger, type Logger } from "../observability/index.js";
import { demoBanner } from "./demo-banner.js";
import { demoBaseEnv, demoEnv, localUrl } from "./demo-env.js";
import { DEMO_LLM_RULES } from "./demo-llm-rules.js";
import {
  type DemoState,
  type DemoStateDeps,
  demoFilePath,
  loadOrCreateDemoState,
  writeDemoState,
} from "./demo-state.js";
import { DEMO_DEFAULT_TRANSCRIPT, demoTranscripts } from "./demo-stt.js";

export interface StartDemoOptions {
  /** The user's passthrough variables (see chooseStartMode): HOST, PORT, SHARPSHARP_DATA_DIR, … */
  readonly env: Readonly<Partial<Record<DemoPassthroughName, string>>>;
  /** Where relative paths (the data directory) are resolved. */
  readonly cwd: string;
  /** Where the terminal block goes (the CLI passes stdout). */
  readonly print: (text: string) => void;
  /** Default: a logger at the demo's log level. */
  readonly logger?: Logger;
  readonly stateDeps?: DemoStateDeps;
}

export interface RunningDemo {
  /** The gateway's /webhook, as a client on this machine reaches it. */
  readonly webhookUrl: string;
  /** The demo's file (secrets and URLs). */
  readonly file: string;
  readonly state: DemoState;
  /** Whether this start made the secrets (and printed them). */
  readonly created: boolean;
  readonly logger: Logger;
  /** Stops the gateway, then the fakes. */
  close(): Promise<void>;
}

/**
 * `npm start` with no WhatsApp configuration: the gateway against a fake
 * Graph API, a fake LLM and a fake speech server, all in this process on loopback, with local
 * secrets made once and kept in `<data dir>/demo.json`. The real code paths
 * run end to end; only Meta and the model are stand-ins.
 */
export async function startDemo(options: StartDemoOptions): Promise<RunningDemo> {
  // The data directory and log level as the gateway will read them; a bad PORT fails here, before any secret is made.
  const base = loadConfig({ env: demoBaseEnv(options.env), cwd: options.cwd, requireTenants: false });
  const logger = options.logger ?? createLogger({ level: base.logLevel });
  const dataDir = resolve(options.cwd, base.dataDir);
  const loaded = loadOrCreateDemoState(dataDir, options.stateDeps);
  const { created } = loaded;
  // A demo file from before the console gets its operator's password now, shown once like the secrets.
  const consoleCreated = created || loaded.state.secrets.consolePassword === undefined;
  const state: DemoState =
    loaded.state.secrets.consolePassword === undefined
      ? {
          ...loaded.state,
          secrets: {
            ...loaded.state.secrets,
            consolePassword: randomBytes(14).toString("base64url").slice(0, 18),
          },
        }
      : loaded.state;
  const consolePassword = state.secrets.consolePassword as string;

  // The gateway's webhook is known once it listens; until then no message is sent, so no status is due.
  let statusWebhookUrl: string | undefined;
  const graph = createFakeGraphApi(
    { logger },
    {
      tokens: [state.secrets.graphToken],
      phoneNumberIds: [state.phoneNumberId],
      // Sent, delivered and read, as a phone would report them: the console's ticks move.
      autoStatuses: { webhookUrl: () => statusWebhookUrl, appSecret: state.secrets.appSecret, delayMs: 400 },
    },
  );
  const llm = createFakeLlm({ logger }, { rules: DEMO_LLM_RULES });
  // Voice notes: the fixtures' sentences by their sha256, anything else the default transcript.
  const stt = createFakeStt(
    { logger },
    { transcripts: demoTranscripts(), defaultTranscript: DEMO_DEFAULT_TRANSCRIPT },
  );
  const closeFakes = async () => {
    await Promise.allSettled([graph.close(), llm.close(), stt.close()]);
  };
  try {
    const graphUrl = await graph.listen({ host: "127.0.0.1", port: 0 });
    const llmUrl = `${await llm.listen({ host: "127.0.0.1", port: 0 })}/v1`;
    const sttUrl = `${await stt.listen({ host: "127.0.0.1", port: 0 })}/v1`;
    const config = loadConfig({
      env: demoEnv(state, { graphUrl, llmUrl, sttUrl }, options.env),
      cwd: options.cwd,
    });
    const gateway = await startAll(config, {
      logger,
      ensureOperator: {
        email: DEMO_OPERATOR_EMAIL,
        name: "Demo admin",
        password: consolePassword,
        grants: [{ tenantId: "*", role: "admin" }],
      },
    });
    const webhookUrl = `${localUrl(gateway.url)}/webhook`;
    statusWebhookUrl = webhookUrl;
    // The banner invites a message at once; before /readyz the webhook would answer it 503.
    if (!(await becomesReady(localUrl(gateway.url), READY_WAIT_MS))) {
      logger.warn(
        `the gateway is not ready after ${READY_WAIT_MS / 1000} s (see /readyz): webhooks get 503 until it is`,
      );
    }
    const running: DemoState = {
      ...state,
      running: {
        webhookUrl,
        graphUrl,
        llmUrl,
        sttUrl,
        ports: {
          gateway: portOf(gateway.url),
          graph: portOf(graphUrl),
          llm: portOf(llmUrl),
          stt: portOf(sttUrl),
        },
        startedAt: new Date((options.stateDeps?.now ?? Date.now)()).toISOString(),
      },
    };
    try {
      writeDemoState(dataDir, running);
    } catch (error) {
      await gateway.close();
      throw error;
    }
    const file = demoFilePath(dataDir);
    const metricsUrl = `${localUrl(gateway.adminUrl)}/metrics`;
    const consoleUrl = `${localUrl(gateway.adminUrl)}/`;
    options.print(
      demoBanner({
        state: running,
        created,
        file,
        webhookUrl,
        graphUrl,
        llmUrl,
        sttUrl,
        metricsUrl,
        console: {
          url: consoleUrl,
          email: DEMO_OPERATOR_EMAIL,
          password: consoleCreated ? consolePassword : undefined,
        },
      }),
    );
    return {
      webhookUrl,
      file,
      state: running,
      created,
      logger,
      async close() {
        await gateway.close();
        await closeFakes();
      },
    };
  } catch (error) {
    await closeFakes();
    throw error;
  }
}

/** The demo's console operator: admin of every tenant. */
export const DEMO_OPERATOR_EMAIL = "admin@demo.local";

/** How long start waits for the gateway's /readyz before printing the banner anyway, ms. */
const READY_WAIT_MS = 10_000;

async function becomesReady(baseUrl: string, withinMs: number): Promise<boolean> {
  const until = Date.now() + withinMs;
  while (Date.now() < until) {
    const status = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(1000) }).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return true;
    await sleep(50);
  }
  return false;
}

function portOf(url: string): number {
  return Number(new URL(url).port);
}
