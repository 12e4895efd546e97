import type { z } from "zod";
import { type AppConfig, DEFAULT_TENANT_ID, type TenantConfig } from "./app-config.js";
import { deepFreeze } from "./deep-freeze.js";
import { envSchema, type ParsedEnv } from "./env-schema.js";
import { ConfigError } from "./errors.js";
import { readTenantsFile } from "./read-tenants-file.js";
import { checkTenantEnvAccess } from "./tenant-env-access.js";
import { FORBIDDEN_SECRET_KEYS, type TenantFileEntry, tenantsFileSchema } from "./tenants-file-schema.js";
import { redisConfigFrom } from "./topology-config.js";
import { tracingConfigOf } from "./tracing-config.js";

/** The Graph API call timeout the composition roots use (app/pipeline.ts), ms. */
export const GRAPH_SEND_TIMEOUT_MS = 10_000;

export interface LoadConfigOptions {
  /** Usually process.env; only config/ is allowed to read it. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Where relative paths and the default tenants file are looked up. */
  readonly cwd: string;
  /** Whether no tenant at all is an error (processes that never see a webhook pass false). */
  readonly requireTenants?: boolean;
}

const OWN_TENANT_FIELDS = new Set([
  "id",
  "appSecretEnv",
  "verifyTokenEnv",
  "graphTokenEnv",
  "allowedEnv",
  "phoneNumberIds",
  "throughputMps",
  "coalesce",
  "staleAfterMs",
]);

function describeIssues(
  issues: readonly z.core.$ZodIssue[],
  where: (path: PropertyKey[]) => string,
): string[] {
  return issues.map((issue) => `${where(issue.path)}: ${issue.message}`);
}

function withoutEmptyStrings(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const cleaned: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    // A secret pasted with a trailing newline would fail every signature; no value here means its spaces.
    if (value !== undefined && value.trim() !== "") cleaned[name] = value.trim();
  }
  return cleaned;
}

function withoutKeys(env: Record<string, string>, keys: readonly string[]): Record<string, string> {
  const kept = { ...env };
  for (const key of keys) delete kept[key];
  return kept;
}

function checkCoalesce(where: string, windowMs: number, maxMs: number, problems: string[]): void {
  if (windowMs > 0 && maxMs > 0 && maxMs < windowMs) {
    problems.push(`${where}: the maximum (${maxMs} ms) must not be shorter than the window (${windowMs} ms)`);
  }
}

const isLoopbackHost = (host: string): boolean =>
  host === "localhost" || host === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);

/** The admin listener serves what an attacker would like to read; off this machine it needs a token. */
function checkAdmin(env: ParsedEnv, tokenGiven: boolean, problems: string[]): void {
  if (!isLoopbackHost(env.ADMIN_HOST) && !tokenGiven) {
    problems.push(
      `ADMIN_HOST: ${env.ADMIN_HOST} lets other machines read /metrics and /readyz; set ADMIN_TOKEN too ` +
        "(scrapers then send Authorization: Bearer <token>), or keep ADMIN_HOST=127.0.0.1",
    );
  }
  if (env.ADMIN_PORT !== 0 && env.ADMIN_PORT === env.PORT) {
    problems.push(`ADMIN_PORT: must differ from PORT (${env.PORT}); the admin listener is a port of its own`);
  }
}

function tenantFromEnv(env: ParsedEnv, problems: string[]): TenantConfig | undefined {
  const anySet = env.WHATSAPP_APP_SECRET !== undefined || env.WHATSAPP_VERIFY_TOKEN !== undefined;
  if (!anySet) return undefined;
  if (env.WHATSAPP_APP_SECRET === undefined) {
    problems.push("WHATSAPP_APP_SECRET: required (the Meta app secret, App Dashboard → Settings → Basic)");
  }
  if (env.WHATSAPP_VERIFY_TOKEN === undefined) {
    problems.push(
      "WHATSAPP_VERIFY_TOKEN: required (the verify token you type into the webhook configuration)",
    );
  }
  if (env.WHATSAPP_APP_SECRET === undefined || env.WHATSAPP_VERIFY_TOKEN === undefined) return undefined;
  return {
    id: DEFAULT_TENANT_ID,
    appSecret: env.WHATSAPP_APP_SECRET,
    verifyToken: env.WHATSAPP_VERIFY_TOKEN,
    graphToken: env.WHATSAPP_TOKEN,
    phoneNumberIds: env.WHATSAPP_PHONE_NUMBER_ID === undefined ? [] : [env.WHATSAPP_PHONE_NUMBER_ID],
    throughputMps: env.WHATSAPP_THROUGHPUT_MPS,
    coalesce: { windowMs: env.COALESCE_WINDOW_MS, maxMs: env.COALESCE_MAX_MS },
    staleAfterMs: env.STALE_AFTER_MS,
    settings: {},
  };
}

function tenantFromFile(
  entry: TenantFileEntry,
  env: Readonly<Record<string, string>>,
  defaults: ParsedEnv,
  where: string,
  problems: string[],
): TenantConfig | undefined {
  const secret = (field: string, name: string | undefined, required: boolean): string | undefined => {
    if (name === undefined) return undefined;
    const value = env[name];
    if (value === undefined && required) {
      problems.push(`${where}.${field}: names ${name}, which is not set in the environment`);
    }
    return value;
  };
  const appSecret = secret("appSecretEnv", entry.appSecretEnv, true);
  const verifyToken = secret("verifyTokenEnv", entry.verifyTokenEnv, true);
  const graphToken = secret("graphTokenEnv", entry.graphTokenEnv, true);
  const coalesce = entry.coalesce ?? {
    windowMs: defaults.COALESCE_WINDOW_MS,
    maxMs: defaults.COALESCE_MAX_MS,
  };
  checkCoalesce(`${where}.coalesce`, coalesce.windowMs, coalesce.maxMs, problems);
  if (appSecret === undefined || verifyToken === undefined) return undefined;
  const settings = settingsOf(entry);
  const secrets: Record<string, string> = {};
  for (const name of referencedEnvNames(settings)) {
    const value = env[name];
    if (value !== undefined) secrets[name] = value;
  }
  return {
    id: entry.id,
    appSecret,
    verifyToken,
    graphToken,
    phoneNumberIds: entry.phoneNumberIds,
    throughputMps: entry.throughputMps ?? defaults.WHATSAPP_THROUGHPUT_MPS,
    coalesce,
    staleAfterMs: entry.staleAfterMs ?? defaults.STALE_AFTER_MS,
    settings,
    secrets,
  };
}

/** What the capabilities read of a tenant entry: everything but the fields the config owns. */
function settingsOf(entry: TenantFileEntry): Record<string, unknown> {
  const settings: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(entry)) {
    if (!OWN_TENANT_FIELDS.has(key)) settings[key] = value;
  }
  return settings;
}

/** Every `{ env: NAME }` in a tenant's settings (tool auth headers name their secrets this way). */
function referencedEnvNames(value: unknown, found: Set<string> = new Set()): Set<string> {
  if (Array.isArray(value)) for (const item of value) referencedEnvNames(item, found);
  else if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    if (typeof record.env === "string") found.add(record.env);
    for (const item of Object.values(record)) referencedEnvNames(item, found);
  }
  return found;
}

function tenantsFromFile(
  path: string,
  content: unknown,
  env: Readonly<Record<string, string>>,
  parsedEnv: ParsedEnv,
  problems: string[],
): TenantConfig[] {
  const parsed = tenantsFileSchema.safeParse(content);
  if (!parsed.success) {
    problems.push(...describeIssues(parsed.error.issues, (p) => `${path}: ${p.join(".") || "(top level)"}`));
    return [];
  }
  const refusedEnv = checkTenantEnvAccess(
    parsed.data.tenants.map((entry) => ({
      id: entry.id,
      allowedEnv: entry.allowedEnv,
      ownSecretNames: [entry.appSecretEnv, entry.verifyTokenEnv, entry.graphTokenEnv].filter(
        (name): name is string => name !== undefined,
      ),
      referenced: referencedEnvNames(settingsOf(entry)),
    })),
  );
  const tenants: TenantConfig[] = [];
  parsed.data.tenants.forEach((entry, index) => {
    const where = `${path}: tenants.${index} (${entry.id})`;
    for (const refused of refusedEnv.get(entry.id) ?? []) problems.push(`${where}: ${refused}`);
    for (const key of FORBIDDEN_SECRET_KEYS) {
      if (key in entry) {
        problems.push(
          `${where}.${key}: secrets are never written in the file; name the variable with ${key}Env`,
        );
      }
    }
    const tenant = tenantFromFile(entry, env, parsedEnv, where, problems);
    if (tenant !== undefined) tenants.push(tenant);
  });
  return tenants;
}

/**
 * Reads the configuration contract (docs/configuration.md) from `env` and an optional
 * tenants file, reports every problem at once (as a ConfigError), and returns
 * the result frozen.
 */
export function loadConfig(options: LoadConfigOptions): AppConfig {
  const env = withoutEmptyStrings(options.env);
  const problems: string[] = [];
  const parsedEnvResult = envSchema.safeParse(env);
  if (!parsedEnvResult.success) {
    problems.push(...describeIssues(parsedEnvResult.error.issues, (p) => String(p[0] ?? "environment")));
    // Keep going with defaults so the file and tenant problems are reported in the same run.
  }
  const parsedEnv = parsedEnvResult.success
    ? parsedEnvResult.data
    : envSchema.parse(
        withoutKeys(
          env,
          parsedEnvResult.error.issues.map((issue) => String(issue.path[0])),
        ),
      );
  checkCoalesce("COALESCE_MAX_MS", parsedEnv.COALESCE_WINDOW_MS, parsedEnv.COALESCE_MAX_MS, problems);
  checkAdmin(parsedEnv, env.ADMIN_TOKEN !== undefined, problems);
  const redis = redisConfigFrom(parsedEnv, options.cwd, problems);

  const tenants: TenantConfig[] = [];
  const envTenant = tenantFromEnv(parsedEnv, problems);
  if (envTenant !== undefined) tenants.push(envTenant);
  const file = readTenantsFile(env.SHARPSHARP_CONFIG, options.cwd, problems);
  if (file !== undefined) tenants.push(...tenantsFromFile(file.path, file.content, env, parsedEnv, problems));

  const numberOwners = new Map<string, string>();
  for (const tenant of tenants) {
    for (const phoneNumberId of tenant.phoneNumberIds) {
      const other = numberOwners.get(phoneNumberId);
      if (other !== undefined && other !== tenant.id) {
        problems.push(`phone number id ${phoneNumberId} is listed by both "${other}" and "${tenant.id}"`);
      }
      numberOwners.set(phoneNumberId, tenant.id);
    }
  }
  const seen = new Set<string>();
  for (const tenant of tenants) {
    if (seen.has(tenant.id)) {
      problems.push(
        `tenant "${tenant.id}" is defined twice (the WHATSAPP_* variables describe the tenant "${DEFAULT_TENANT_ID}")`,
      );
    }
    seen.add(tenant.id);
  }
  if (tenants.length === 0 && problems.length === 0 && options.requireTenants !== false) {
    problems.push(
      "no tenant is configured: set WHATSAPP_APP_SECRET and WHATSAPP_VERIFY_TOKEN, " +
        "or list tenants in sharpsharp.config.json / .yaml (path in SHARPSHARP_CONFIG)",
    );
  }
  if (problems.length > 0) throw new ConfigError(problems);

  const optionalService = (
    baseUrl: string | undefined,
    apiKey: string | undefined,
    model: string | undefined,
  ) => (baseUrl === undefined ? undefined : { baseUrl, apiKey, model });

  return deepFreeze<AppConfig>({
    server: {
      host: parsedEnv.HOST,
      port: parsedEnv.PORT,
      bodyLimitBytes: parsedEnv.INGRESS_BODY_LIMIT_BYTES,
      requestTimeoutMs: parsedEnv.INGRESS_REQUEST_TIMEOUT_MS,
      headersTimeoutMs: parsedEnv.INGRESS_HEADERS_TIMEOUT_MS,
      keepAliveTimeoutMs: parsedEnv.INGRESS_KEEP_ALIVE_TIMEOUT_MS,
      idleTimeoutMs: parsedEnv.INGRESS_IDLE_TIMEOUT_MS,
      maxConnections: parsedEnv.INGRESS_MAX_CONNECTIONS,
    },
    admin: { host: parsedEnv.ADMIN_HOST, port: parsedEnv.ADMIN_PORT, token: parsedEnv.ADMIN_TOKEN },
    console: {
      sessionMs: parsedEnv.CONSOLE_SESSION_HOURS * 3_600_000,
      secureCookies: parsedEnv.CONSOLE_SECURE_COOKIES === "on",
      metaSilentMinutes: parsedEnv.CONSOLE_META_SILENT_MINUTES,
      maxStreams: parsedEnv.CONSOLE_MAX_STREAMS,
      ingressUrl: parsedEnv.CONSOLE_INGRESS_URL?.replace(/\/+$/, ""),
    },
    redis,
    databaseUrl: parsedEnv.DATABASE_URL,
    databaseSchema: parsedEnv.DATABASE_SCHEMA,
    dataDir: parsedEnv.SHARPSHARP_DATA_DIR,
    graph: {
      baseUrl: parsedEnv.GRAPH_API_BASE_URL.replace(/\/+$/, ""),
      version: parsedEnv.GRAPH_API_VERSION,
    },
    llm:
      parsedEnv.LLM_BASE_URL === undefined
        ? undefined
        : {
            baseUrl: parsedEnv.LLM_BASE_URL,
            apiKey: parsedEnv.LLM_API_KEY,
            model: parsedEnv.LLM_MODEL,
            fallback: optionalService(
              parsedEnv.LLM_FALLBACK_BASE_URL,
              parsedEnv.LLM_FALLBACK_API_KEY,
              parsedEnv.LLM_FALLBACK_MODEL,
            ),
            timeoutMs: parsedEnv.LLM_TIMEOUT_MS,
          },
    agent: { deadlineMs: parsedEnv.AGENT_DEADLINE_MS, maxToolSteps: parsedEnv.AGENT_MAX_TOOL_STEPS },
    // A turn cut off at shutdown runs again elsewhere; long enough by default for one to finish and send.
    shutdownGraceMs: parsedEnv.SHUTDOWN_GRACE_MS ?? parsedEnv.AGENT_DEADLINE_MS + GRAPH_SEND_TIMEOUT_MS,
    stt:
      parsedEnv.STT_BASE_URL === undefined
        ? undefined
        : {
            baseUrl: parsedEnv.STT_BASE_URL,
            apiKey: parsedEnv.STT_API_KEY,
            model: parsedEnv.STT_MODEL,
            fallback: optionalService(
              parsedEnv.STT_FALLBACK_BASE_URL,
              parsedEnv.STT_FALLBACK_API_KEY,
              parsedEnv.STT_FALLBACK_MODEL,
            ),
            timeoutMs: parsedEnv.STT_TIMEOUT_MS,
            pricePerMinuteUsd: parsedEnv.STT_PRICE_PER_MINUTE_USD,
          },
    sttTimeoutMs: parsedEnv.STT_TIMEOUT_MS,
    tts:
      parsedEnv.TTS_BASE_URL === undefined
        ? undefined
        : {
            baseUrl: parsedEnv.TTS_BASE_URL,
            apiKey: parsedEnv.TTS_API_KEY,
            model: parsedEnv.TTS_MODEL,
            voice: parsedEnv.TTS_VOICE,
          },
    mediaHosts: parsedEnv.MEDIA_HOSTS?.split(",").map((host) => host.toLowerCase()),
    ingress: {
      enqueueTimeoutMs: parsedEnv.INGRESS_ENQUEUE_TIMEOUT_MS,
      dedupeTtlSeconds: parsedEnv.WEBHOOK_DEDUPE_TTL_HOURS * 3600,
    },
    worker: {
      lockMs: parsedEnv.WORKER_LOCK_MS,
      stalledIntervalMs: parsedEnv.WORKER_STALLED_INTERVAL_MS,
      maxTurnAttempts: parsedEnv.TURN_MAX_ATTEMPTS,
    },
    campaigns: {
      leaseMs: parsedEnv.CAMPAIGN_LEASE_MS,
      unknownGraceMs: parsedEnv.CAMPAIGN_UNKNOWN_GRACE_MS,
      recoverEveryMs: parsedEnv.CAMPAIGN_RECOVER_EVERY_MS,
    },
    logLevel: parsedEnv.LOG_LEVEL,
    tracing: tracingConfigOf(parsedEnv),
    tenants,
    configFile: file?.path,
  });
}

/** The composition root's entry: the real environment and working directory. */
export function loadConfigFromProcess(options: { requireTenants?: boolean } = {}): AppConfig {
  return loadConfig({ env: process.env, cwd: process.cwd(), ...options });
}

/** What the developer tools (the fake Graph API, the fake LLM) take from the environment, trimmed; unset when empty. */
export function loadDevToolEnv(): {
  readonly whatsappToken?: string;
  readonly llmApiKey?: string;
  readonly logLevel?: string;
} {
  const pick = (name: string) => {
    const value = process.env[name]?.trim();
    return value === undefined || value === "" ? undefined : value;
  };
  const whatsappToken = pick("WHATSAPP_TOKEN");
  const llmApiKey = pick("LLM_API_KEY");
  const logLevel = pick("LOG_LEVEL");
  return {
    ...(whatsappToken === undefined ? {} : { whatsappToken }),
    ...(llmApiKey === undefined ? {} : { llmApiKey }),
    ...(logLevel === undefined ? {} : { logLevel }),
  };
}

/**
 * Where the console API of a running gateway is, for commands that talk to it (`sharpsharp campaign`):
 * SHARPSHARP_API_URL, else http://ADMIN_HOST:ADMIN_PORT (0.0.0.0 and :: are reached on loopback);
 * SHARPSHARP_API_TOKEN is an operator's API token (`sharpsharp admin token`).
 */
export function loadApiClientEnv(): { readonly apiUrl: string; readonly token?: string } {
  const pick = (name: string) => {
    const value = process.env[name]?.trim();
    return value === undefined || value === "" ? undefined : value;
  };
  const host = pick("ADMIN_HOST") ?? "127.0.0.1";
  const reachable =
    host === "0.0.0.0" ? "127.0.0.1" : host === "::" ? "[::1]" : host.includes(":") ? `[${host}]` : host;
  const apiUrl = pick("SHARPSHARP_API_URL") ?? `http://${reachable}:${pick("ADMIN_PORT") ?? "9464"}`;
  const token = pick("SHARPSHARP_API_TOKEN");
  return { apiUrl: apiUrl.replace(/\/+$/, ""), ...(token === undefined ? {} : { token }) };
}
