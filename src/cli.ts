import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import {
  type AdminCommand,
  runAdminCommand,
  runCampaignCommand,
  runConversationModeCommand,
  startAll,
  startConsole,
  startIngress,
  startWorker,
} from "./app/index.js";
import {
  ConfigError,
  loadApiClientEnv,
  loadConfigFromProcess,
  loadDevToolEnv,
  loadStartChoiceFromProcess,
  secretValuesOf,
} from "./config/index.js";
import { runSimulateCommand, startDemo } from "./demo/index.js";
import {
  createFakeGraphApi,
  createFakeLlm,
  createFakeStt,
  FAKE_GRAPH_USAGE,
  FAKE_LLM_USAGE,
  FAKE_STT_USAGE,
  parseFakeGraphArgs,
  parseFakeLlmArgs,
  parseFakeSttArgs,
} from "./dev/index.js";
import { SharpsharpError } from "./errors/index.js";
import { createLogger, type Logger } from "./observability/index.js";
import { resolveResponderSettings, runRouterCommand } from "./router/index.js";

const USAGE = `Usage: sharpsharp <command>

Commands:
  ingress     Run the webhook ingress (HOST/PORT; needs Redis: REDIS_URL, REDIS_SENTINELS
              or REDIS_CLUSTER_NODES; without Redis, use start).
  worker      Run a worker: turns (first responder) and the outbound sender; /healthz and
              /readyz on HOST/PORT. Flags: --turn-concurrency N,
              --outbound-concurrency N (default 16 each).
              Every process that listens also serves /metrics and the detailed /readyz
              on ADMIN_HOST/ADMIN_PORT (127.0.0.1:9464).
  start       Run the whole gateway in one process: embedded on SQLite in
              SHARPSHARP_DATA_DIR without Redis, on Redis with it. With no WhatsApp configuration
              (no WHATSAPP_* variables, no SHARPSHARP_CONFIG): a local demo against a fake
              Graph API and a fake LLM.
  simulate    Send a signed test message to the demo and print the reply
              (sharpsharp simulate "abeg my transfer never enter"; --help for its flags).
  fake-graph  Run a fake WhatsApp Graph API for local runs and tests (--help for its flags).
  fake-llm    Run a fake OpenAI-compatible LLM for local runs and tests (--help for its flags).
  fake-stt    Run a fake OpenAI-compatible speech server (transcription and text to speech) for local
              runs and tests (--help for its flags).
  router      The intent router: train, classify, eval, lexicon (sharpsharp router help).
  console     Redis mode: the operator console on ADMIN_HOST/ADMIN_PORT (needs REDIS_URL and
              DATABASE_URL). Embedded mode: \`start\` serves the console itself.
  admin create --email E [--name N] [--tenant T ...] [--role admin|agent] [--password-stdin]
              Create a console operator (default: admin of every tenant, "*"); without
              --password-stdin a password is made and printed once.
  admin token --email E --name N
              Create an API token for scripts (printed once).
  admin list  List the console's operators.
  campaign create|start|pause|resume|cancel|status|list --tenant T …
              Broadcast an approved template to an audience inside Meta's limits, through
              the running gateway's console API (SHARPSHARP_API_TOKEN; sharpsharp campaign help).
  conversation mode <conversationKey> [bot|human|paused]
              Show or set who answers a conversation (give a handed-off
              conversation back to the bot with "bot"). Embedded mode: run it
              while the gateway is stopped (one process owns the SQLite file).
  help        Show this help.
  version     Print the version.

Configuration comes from the environment (see docs/configuration.md).`;

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
    version: string;
  };
  return pkg.version;
}

function fail(message: string, code = 2): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

/**
 * Closes `running` on SIGTERM/SIGINT, then exits 0 (1 if closing fails or takes over `forceAfterMs`,
 * which leaves room for the grace period running work is given).
 */
function closeOnSignals(logger: Logger, running: { close(): Promise<void> }, forceAfterMs = 10_000): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down: finishing the work in flight");
    const force = setTimeout(() => {
      logger.error(`shutdown took longer than ${forceAfterMs / 1000} s; exiting`);
      process.exit(1);
    }, forceAfterMs);
    force.unref();
    running.close().then(
      () => {
        logger.info("stopped");
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, "error during shutdown");
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

function concurrencyFlag(args: readonly string[], name: string): number | undefined {
  const { values } = parseArgs({
    args: [...args],
    options: { [name]: { type: "string" } },
    strict: false,
    allowPositionals: true,
  });
  const raw = values[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== "string" || !/^\d{1,4}$/.test(raw) || Number(raw) < 1)
    fail(`--${name} must be a whole number from 1 to 9999`);
  return Number(raw);
}

async function run(role: "ingress" | "worker" | "start", args: readonly string[]): Promise<void> {
  const config = loadConfigFromProcess({ requireTenants: true });
  const logger = createLogger({ level: config.logLevel, secrets: secretValuesOf(config) });
  const turnConcurrency = concurrencyFlag(args, "turn-concurrency");
  const outboundConcurrency = concurrencyFlag(args, "outbound-concurrency");
  const running =
    role === "ingress"
      ? await startIngress(config, { logger })
      : role === "worker"
        ? await startWorker(config, {
            logger,
            ...(turnConcurrency === undefined ? {} : { turnConcurrency }),
            ...(outboundConcurrency === undefined ? {} : { outboundConcurrency }),
          })
        : await startAll(config, { logger });
  closeOnSignals(logger, running, config.shutdownGraceMs + 10_000);
}

/** `sharpsharp start` with nothing WhatsApp configured: the demo (see src/demo). */
async function runDemo(env: Parameters<typeof startDemo>[0]["env"]): Promise<void> {
  const demo = await startDemo({
    env,
    cwd: process.cwd(),
    print: (text) => process.stdout.write(`${text}\n`),
  });
  closeOnSignals(demo.logger, demo);
}

async function runFakeGraph(args: readonly string[]): Promise<void> {
  if (args.includes("--help")) {
    process.stdout.write(`${FAKE_GRAPH_USAGE}\n`);
    return;
  }
  const devEnv = loadDevToolEnv();
  const parsed = parseFakeGraphArgs(args, { WHATSAPP_TOKEN: devEnv.whatsappToken });
  if (!parsed.ok) fail(`${parsed.problems.join("\n")}\n\n${FAKE_GRAPH_USAGE}`);
  const { host, port, api } = parsed.value;
  // Quiet by default: the one line below is what a developer needs; LOG_LEVEL=info shows more.
  const logger = createLogger({ level: devEnv.logLevel ?? "warn" });
  const fake = createFakeGraphApi({ logger }, api);
  const url = await fake.listen({ host, port });
  const limits = [
    api.limits?.throughput === undefined ? undefined : `${api.limits.throughput.mps} mps`,
    api.limits?.pair === undefined ? undefined : "pair limit",
  ].filter((limit) => limit !== undefined);
  process.stdout.write(
    `sharpsharp fake Graph API listening on ${url} (set GRAPH_API_BASE_URL=${url}; ` +
      `limits: ${limits.length === 0 ? "off" : limits.join(", ")}; faults: ${JSON.stringify(fake.faults())})\n`,
  );
  closeOnSignals(logger, fake);
}

const MODES = ["bot", "human", "paused"] as const;

/** `sharpsharp conversation mode <key> [mode]`: who answers a conversation, shown or set. */
async function conversationCommand(args: readonly string[]): Promise<void> {
  const [subcommand, conversationKey, mode] = args;
  if (subcommand !== "mode" || conversationKey === undefined)
    fail("usage: sharpsharp conversation mode <conversationKey> [bot|human|paused]");
  if (mode !== undefined && !(MODES as readonly string[]).includes(mode))
    fail(`mode must be one of ${MODES.join(", ")} (got "${mode}")`);
  const config = loadConfigFromProcess({ requireTenants: false });
  const now = await runConversationModeCommand(config, {
    conversationKey,
    mode: mode as (typeof MODES)[number] | undefined,
  });
  process.stdout.write(`${conversationKey}: ${now}\n`);
}

async function readStdinLine(): Promise<string> {
  let text = "";
  for await (const chunk of process.stdin) {
    text += String(chunk);
    if (text.includes("\n")) break;
  }
  return text.split(/\r?\n/)[0] ?? "";
}

/** `sharpsharp admin create|token|list`: the console's operators, on the message log's database. */
async function adminCommand(args: readonly string[]): Promise<void> {
  const usage =
    "usage: sharpsharp admin create --email E [--name N] [--tenant T ...] [--role admin|agent] [--password-stdin]\n" +
    "       sharpsharp admin token --email E --name N\n       sharpsharp admin list";
  const { values, positionals } = parseArgs({
    args: [...args],
    options: {
      email: { type: "string" },
      name: { type: "string" },
      tenant: { type: "string", multiple: true },
      role: { type: "string" },
      "password-stdin": { type: "boolean" },
    },
    allowPositionals: true,
  });
  const action = positionals[0];
  let command: AdminCommand;
  if (action === "list") {
    command = { action: "list" };
  } else if (action === "create" && values.email !== undefined) {
    const role = values.role ?? "admin";
    if (role !== "admin" && role !== "agent") fail(`--role must be admin or agent (got "${role}")`);
    command = {
      action: "create",
      email: values.email,
      name: values.name,
      grants: (values.tenant ?? ["*"]).map((tenantId) => ({ tenantId, role })),
      password: values["password-stdin"] === true ? await readStdinLine() : undefined,
    };
  } else if (action === "token" && values.email !== undefined && values.name !== undefined) {
    command = { action: "token", email: values.email, name: values.name };
  } else {
    fail(usage);
  }
  const config = loadConfigFromProcess({ requireTenants: false });
  const result = await runAdminCommand(config, command);
  if (result.action === "list") {
    for (const operator of result.operators) {
      const grants = operator.grants.map((grant) => `${grant.role}@${grant.tenantId}`).join(", ");
      process.stdout.write(`${operator.email}\t${operator.name}\t${grants}\n`);
    }
  } else if (result.action === "create") {
    process.stdout.write(`operator ${result.operator.email} created (${result.operator.id})\n`);
    if (result.generatedPassword !== undefined) {
      process.stdout.write(`password (shown once; keep it): ${result.generatedPassword}\n`);
    }
  } else {
    process.stdout.write(`API token for ${result.operator.email} (shown once; keep it): ${result.token}\n`);
  }
}

async function runConsole(): Promise<void> {
  const config = loadConfigFromProcess({ requireTenants: true });
  const logger = createLogger({ level: config.logLevel, secrets: secretValuesOf(config) });
  const running = await startConsole(config, { logger });
  closeOnSignals(logger, running);
}

async function runFakeLlm(args: readonly string[]): Promise<void> {
  if (args.includes("--help")) {
    process.stdout.write(`${FAKE_LLM_USAGE}\n`);
    return;
  }
  const devEnv = loadDevToolEnv();
  const parsed = parseFakeLlmArgs(args, {
    ...(devEnv.llmApiKey === undefined ? {} : { llmApiKey: devEnv.llmApiKey }),
    readText: (path) => readFileSync(path, "utf8"),
  });
  if (!parsed.ok) fail(`${parsed.problems.join("\n")}\n\n${FAKE_LLM_USAGE}`);
  const { host, port, llm } = parsed.value;
  // Quiet by default, like fake-graph: LOG_LEVEL=debug logs every answer.
  const logger = createLogger({ level: devEnv.logLevel ?? "warn" });
  const fake = createFakeLlm({ logger }, llm);
  const url = await fake.listen({ host, port });
  const { latencyMs, errorRate, errorStatus } = fake.faults();
  const latency = typeof latencyMs === "number" ? `${latencyMs} ms` : `${latencyMs[0]}-${latencyMs[1]} ms`;
  // Never the key itself: this line ends up in terminals and CI logs.
  process.stdout.write(
    `sharpsharp fake LLM listening on ${url} (set LLM_BASE_URL=${url}/v1; ` +
      `api key: ${llm.apiKey === undefined ? "any" : "required"}; rules: ${llm.rules?.length ?? 0}; ` +
      `latency: ${latency}; errors: ${errorRate > 0 ? `${errorRate} × ${errorStatus}` : "off"})\n`,
  );
  closeOnSignals(logger, fake);
}

async function runFakeStt(args: readonly string[]): Promise<void> {
  if (args.includes("--help")) {
    process.stdout.write(`${FAKE_STT_USAGE}\n`);
    return;
  }
  const devEnv = loadDevToolEnv();
  const parsed = parseFakeSttArgs(args, { readText: (path) => readFileSync(path, "utf8") });
  if (!parsed.ok) fail(`${parsed.problems.join("\n")}\n\n${FAKE_STT_USAGE}`);
  const { host, port, stt } = parsed.value;
  // Quiet by default, like fake-llm: LOG_LEVEL=debug logs every answer.
  const logger = createLogger({ level: devEnv.logLevel ?? "warn" });
  const fake = createFakeStt({ logger }, stt);
  const url = await fake.listen({ host, port });
  const { latencyMs, errorRate, errorStatus } = fake.faults();
  const latency = typeof latencyMs === "number" ? `${latencyMs} ms` : `${latencyMs[0]}-${latencyMs[1]} ms`;
  // Never the key itself: this line ends up in terminals and CI logs.
  process.stdout.write(
    `sharpsharp fake speech server listening on ${url} (base URL ${url}/v1; ` +
      `api key: ${stt.apiKey === undefined ? "any" : "required"}; ` +
      `transcripts: ${Object.keys(stt.transcripts ?? {}).length}; speech: ${stt.speechFormat ?? "wav"}; ` +
      `latency: ${latency}; errors: ${errorRate > 0 ? `${errorRate} × ${errorStatus}` : "off"})\n`,
  );
  closeOnSignals(logger, fake);
}

async function main(argv: readonly string[]): Promise<void> {
  const { positionals } = parseArgs({ args: [...argv], allowPositionals: true, strict: false });
  const command = positionals[0] ?? "help";
  switch (command) {
    case "start": {
      const choice = loadStartChoiceFromProcess();
      if (choice.mode === "demo") return runDemo(choice.env);
      return run(command, argv.slice(argv.indexOf(command) + 1));
    }
    case "scheduler":
      // Deployments from before workers claimed turns themselves still start this process.
      process.stderr.write(
        "sharpsharp: the scheduler command is gone: workers now claim due conversations straight from Redis.\n" +
          "Remove the scheduler process (and INGRESS_TURN_SCHEDULER) from your deployment.\n",
      );
      process.exitCode = 2;
      return;
    case "ingress":
    case "worker":
      return run(command, argv.slice(argv.indexOf(command) + 1));
    case "simulate":
      process.exitCode = await runSimulateCommand(argv.slice(argv.indexOf("simulate") + 1), {
        stdout: process.stdout,
        stderr: process.stderr,
        config: () => loadConfigFromProcess({ requireTenants: false }),
      });
      return;
    case "fake-graph":
      return runFakeGraph(argv.slice(argv.indexOf("fake-graph") + 1));
    case "fake-llm":
      return runFakeLlm(argv.slice(argv.indexOf("fake-llm") + 1));
    case "fake-stt":
      return runFakeStt(argv.slice(argv.indexOf("fake-stt") + 1));
    case "router": {
      const code = await runRouterCommand(argv.slice(argv.indexOf("router") + 1), {
        stdin: process.stdin,
        stdout: process.stdout,
        stderr: process.stderr,
        tenantIntents: (tenantId) => {
          const tenant = loadConfigFromProcess({ requireTenants: false }).tenants.find(
            (t) => t.id === tenantId,
          );
          return tenant === undefined ? undefined : resolveResponderSettings(tenant).enabledIntents;
        },
        tenantCustomIntents: (tenantId) => {
          const config = loadConfigFromProcess({ requireTenants: false });
          const tenant = config.tenants.find((t) => t.id === tenantId);
          return tenant === undefined
            ? undefined
            : { definitions: resolveResponderSettings(tenant).customIntents, dataDir: config.dataDir };
        },
      });
      process.exitCode = code;
      return;
    }
    case "console":
      return runConsole();
    case "admin":
      return adminCommand(argv.slice(argv.indexOf("admin") + 1));
    case "conversation":
      return conversationCommand(argv.slice(argv.indexOf("conversation") + 1));
    case "campaign": {
      const result = await runCampaignCommand(loadApiClientEnv(), argv.slice(argv.indexOf("campaign") + 1));
      (result.exitCode === 0 ? process.stdout : process.stderr).write(`${result.output}\n`);
      if (result.exitCode !== 0) process.exit(result.exitCode);
      return;
    }
    case "version":
    case "--version":
      process.stdout.write(`${version()}\n`);
      return;
    case "help":
    case "--help":
      process.stdout.write(`${USAGE}\n`);
      return;
    default:
      fail(`unknown command "${command}"\n\n${USAGE}`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof SharpsharpError) fail(error.message);
  fail(`sharpsharp failed to start: ${(error as Error)?.stack ?? String(error)}`, 1);
});
