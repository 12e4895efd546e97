import { isIP } from "node:net";
import { z } from "zod";

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

const integer = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, { error: "must be a whole number" })
    .transform(Number)
    .pipe(z.number())
    .refine((n) => n >= min, { error: `must be at least ${min}` })
    .refine((n) => n <= max, { error: `must be at most ${max}` });

const httpUrl = z
  .string()
  .refine((value) => /^https?:\/\/[^\s]+$/.test(value), { error: "must be an http(s) URL" });

// host:port, a bracketed IPv6 address, or a host alone (the port then defaults), comma-separated.
const hostPortList = z
  .string()
  .refine(
    (value) =>
      value
        .split(",")
        .every((entry) => /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+)(:\d{1,5})?$/.test(entry.trim())),
    { error: "must be host:port entries separated by commas (for example 10.0.0.1:26379,10.0.0.2:26379)" },
  );

const onOff = z.enum(["on", "off"], { error: 'must be "on" or "off"' });

const redisUrl = z
  .string()
  .refine((value) => /^rediss?:\/\/[^\s]*$/.test(value), { error: "must be a redis:// or rediss:// URL" });

/** OTEL_TRACES_SAMPLER's values (the OpenTelemetry SDK's names). */
export const TRACE_SAMPLERS = [
  "always_on",
  "always_off",
  "traceidratio",
  "parentbased_always_on",
  "parentbased_always_off",
  "parentbased_traceidratio",
] as const;

const otlpProtocol = z
  .string()
  .refine((value) => value !== "grpc", {
    error: "grpc is not supported: use http/protobuf (the collector's port 4318)",
  })
  .pipe(z.enum(["http/protobuf", "http/json"], { error: 'must be "http/protobuf" or "http/json"' }));

// W3C baggage-like list, as the OpenTelemetry specification defines OTEL_EXPORTER_OTLP_HEADERS.
const otlpHeaders = z
  .string()
  .refine((value) => value.split(",").every((pair) => /^\s*[A-Za-z0-9!#$%&'*+.^_`|~-]+\s*=.+$/.test(pair)), {
    error: "must be name=value pairs separated by commas (values URL-encoded)",
  });

/**
 * The environment variables sharpsharp reads, with each default beside its
 * field. Empty strings count as unset. Secret values are optional here: which
 * ones are required depends on the tenants (see load-config.ts).
 */
export const envSchema = z.object({
  WHATSAPP_APP_SECRET: z.string().optional(),
  WHATSAPP_VERIFY_TOKEN: z.string().optional(),
  WHATSAPP_TOKEN: z.string().optional(),
  WHATSAPP_PHONE_NUMBER_ID: z
    .string()
    .regex(/^\d{5,20}$/, { error: "must be the numeric phone number id from WhatsApp Manager" })
    .optional(),
  GRAPH_API_BASE_URL: httpUrl.default("https://graph.facebook.com"),
  GRAPH_API_VERSION: z
    .string()
    .regex(/^v\d+\.\d+$/, { error: 'must look like "v25.0"' })
    .default("v25.0"),
  REDIS_URL: redisUrl.optional(),
  // Redis Sentinel: the sentinels to ask and the master group they watch (docs/operations.md, Redis topologies).
  REDIS_SENTINELS: hostPortList.optional(),
  REDIS_SENTINEL_MASTER: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,100}$/, { error: "must be the master group name the sentinels monitor" })
    .optional(),
  REDIS_SENTINEL_USERNAME: z.string().optional(),
  REDIS_SENTINEL_PASSWORD: z.string().optional(),
  // Redis Cluster: some of its nodes; the rest are discovered.
  REDIS_CLUSTER_NODES: hostPortList.optional(),
  // The data nodes' ACL user and password with REDIS_SENTINELS or REDIS_CLUSTER_NODES (REDIS_URL carries its own).
  REDIS_USERNAME: z.string().optional(),
  REDIS_PASSWORD: z.string().optional(),
  // TLS with REDIS_SENTINELS or REDIS_CLUSTER_NODES (REDIS_URL says rediss:// instead); the files are PEM.
  REDIS_TLS: onOff.optional(),
  REDIS_TLS_CA_FILE: z.string().optional(),
  REDIS_TLS_CERT_FILE: z.string().optional(),
  REDIS_TLS_KEY_FILE: z.string().optional(),
  // Wrap REDIS_PREFIX in braces ({ss}:…) so every key hashes to one Cluster slot; always on with a cluster.
  REDIS_KEY_HASH_TAG: onOff.optional(),
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,40}$/, { error: "must be 1-40 letters, digits, '_', '.' or '-'" })
    .default("ss"),
  DATABASE_URL: z
    .string()
    .refine((value) => /^postgres(ql)?:\/\//.test(value), { error: "must be a postgres:// URL" })
    .optional(),
  // The PostgreSQL schema the message log lives in, so several gateways (or tests) can share a database.
  DATABASE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, { error: "must be a lower-case SQL identifier (letters, digits, _)" })
    .default("public"),
  SHARPSHARP_DATA_DIR: z.string().default("./data"),
  SHARPSHARP_CONFIG: z.string().optional(),
  LLM_BASE_URL: httpUrl.optional(),
  LLM_API_KEY: z.string().optional(),
  LLM_MODEL: z.string().optional(),
  /** A second OpenAI-compatible provider, used when the first times out, answers 5xx or 429. */
  LLM_FALLBACK_BASE_URL: httpUrl.optional(),
  LLM_FALLBACK_API_KEY: z.string().optional(),
  LLM_FALLBACK_MODEL: z.string().optional(),
  /** Longest one LLM call may take before it counts as failed (and the fallback is tried), ms. */
  LLM_TIMEOUT_MS: integer(500, 120_000).default(15_000),
  /** A whole agent turn's deadline: past it the customer gets the holding reply, once, ms. */
  AGENT_DEADLINE_MS: integer(1000, 300_000).default(25_000),
  /** Most LLM tool-call rounds in one agent turn. */
  AGENT_MAX_TOOL_STEPS: integer(1, 20).default(5),
  // How long shutdown lets running turns finish; unset: the agent deadline plus a send's timeout.
  SHUTDOWN_GRACE_MS: integer(0, 600_000).optional(),
  // Speech to text for voice notes (OpenAI-compatible /audio/transcriptions); a tenant may name its own.
  STT_BASE_URL: httpUrl.optional(),
  STT_API_KEY: z.string().optional(),
  STT_MODEL: z.string().optional(),
  STT_FALLBACK_BASE_URL: httpUrl.optional(),
  STT_FALLBACK_API_KEY: z.string().optional(),
  STT_FALLBACK_MODEL: z.string().optional(),
  /** Longest one transcription may take before it counts as failed (and the fallback is tried), ms. */
  STT_TIMEOUT_MS: integer(500, 300_000).default(20_000),
  /** US dollars per minute of audio, for ss_stt_cost_usd_total (a tenant's media.stt names its own). */
  STT_PRICE_PER_MINUTE_USD: z.coerce.number().nonnegative().optional(),
  // Voice replies (OpenAI-compatible /audio/speech), for tenants with media.voiceReplies.
  TTS_BASE_URL: httpUrl.optional(),
  TTS_API_KEY: z.string().optional(),
  TTS_MODEL: z.string().optional(),
  TTS_VOICE: z.string().optional(),
  /**
   * Hosts (suffixes) the Graph token may be sent to when downloading media, comma-separated; the
   * Graph API's own host is always allowed. Default: Meta's media hosts.
   */
  MEDIA_HOSTS: z
    .string()
    .regex(/^[a-z0-9.-]+(,[a-z0-9.-]+)*$/i, { error: "must be host names separated by commas" })
    .optional(),
  PORT: integer(0, 65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  // The admin listener (/metrics, the detailed /readyz): this machine only unless it has a token.
  ADMIN_PORT: integer(0, 65535).default(9464),
  ADMIN_HOST: z
    .string()
    .refine((value) => value === "localhost" || isIP(value) !== 0, {
      error: "must be an IP address (127.0.0.1, 0.0.0.0, ::1, …) or localhost",
    })
    .default("127.0.0.1"),
  ADMIN_TOKEN: z
    .string()
    .min(16, { error: "must be at least 16 characters (for example the output of: openssl rand -hex 32)" })
    .refine((value) => !/\s/.test(value), { error: "must not hold spaces or line breaks" })
    .optional(),
  // The operator console on the admin listener (docs/console.md).
  CONSOLE_SESSION_HOURS: integer(1, 24 * 30).default(12),
  CONSOLE_SECURE_COOKIES: z.enum(["on", "off"], { error: 'must be "on" or "off"' }).default("off"),
  CONSOLE_META_SILENT_MINUTES: integer(1, 24 * 60).default(30),
  CONSOLE_MAX_STREAMS: integer(1, 10_000).default(200),
  // Where `sharpsharp console` (Redis mode) posts the simulator's webhooks; default this host's PORT.
  CONSOLE_INGRESS_URL: httpUrl.optional(),
  WHATSAPP_THROUGHPUT_MPS: integer(1, 10_000).default(80),
  COALESCE_WINDOW_MS: integer(0, 60_000).default(800),
  COALESCE_MAX_MS: integer(0, 300_000).default(3000),
  STALE_AFTER_MS: integer(0, 7 * 24 * 3_600_000).default(3_600_000),
  /** How long the ingress waits for Redis before answering 503; kept under Meta-friendly 2 s. */
  INGRESS_ENQUEUE_TIMEOUT_MS: integer(50, 1900).default(1500),
  // The public listener's limits (docs/configuration.md): a slow or idle client is cut off, never held.
  INGRESS_BODY_LIMIT_BYTES: integer(64 * 1024, 16 * 1024 * 1024).default(3 * 1024 * 1024),
  INGRESS_REQUEST_TIMEOUT_MS: integer(1000, 300_000).default(15_000),
  INGRESS_HEADERS_TIMEOUT_MS: integer(500, 60_000).default(5000),
  INGRESS_KEEP_ALIVE_TIMEOUT_MS: integer(1000, 600_000).default(65_000),
  INGRESS_IDLE_TIMEOUT_MS: integer(1000, 600_000).default(70_000),
  INGRESS_MAX_CONNECTIONS: integer(16, 1_000_000).default(8192),
  /** How long a wamid is remembered; Meta retries for up to 7 days, so never less. */
  WEBHOOK_DEDUPE_TTL_HOURS: integer(168, 24 * 90).default(192),
  // Redis may delete keys under memory pressure unless its maxmemory-policy is noeviction; on: start anyway.
  REDIS_ALLOW_EVICTION: z.enum(["on", "off"], { error: 'must be "on" or "off"' }).default("off"),
  /**
   * How long a worker's hold on a job (BullMQ lock), a conversation (turn lock) and an agent slot
   * lasts without renewal, ms: a worker that dies leaves its work to others after this. Holders renew
   * while a turn runs, so this is not bounded by the turn's length.
   */
  WORKER_LOCK_MS: integer(500, 600_000).default(6_000),
  /** Runs of one turn (failures, crashes) before it is set aside unanswered and its conversation goes on. */
  TURN_MAX_ATTEMPTS: integer(1, 100).default(5),
  /** How often each worker looks for jobs whose worker died (BullMQ stalled-job check), ms. */
  WORKER_STALLED_INTERVAL_MS: integer(200, 600_000).default(3_000),
  /**
   * A campaign send claimed but not settled within this is its sender's death: the recipient becomes
   * `unknown` (never sent again blindly), ms.
   */
  CAMPAIGN_LEASE_MS: integer(1000, 3_600_000).default(60_000),
  /** An `unknown` campaign send no status has confirmed within this is sent again, ms (Meta retries webhooks for days). */
  CAMPAIGN_UNKNOWN_GRACE_MS: integer(1000, 7 * 86_400_000).default(900_000),
  /** How often each campaign runner looks for abandoned claims and unknown sends past the grace, ms. */
  CAMPAIGN_RECOVER_EVERY_MS: integer(100, 600_000).default(5_000),
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(", ")}` }).default("info"),
  // OpenTelemetry traces (docs/observability.md#traces): the standard variables, the ones sharpsharp honours.
  OTEL_SDK_DISABLED: z
    .string()
    .transform((value) => value.toLowerCase())
    .pipe(z.enum(["true", "false"], { error: 'must be "true" or "false"' }))
    .optional(),
  OTEL_TRACES_EXPORTER: z.enum(["otlp", "none"], { error: 'must be "otlp" or "none"' }).optional(),
  /** The collector's base URL: traces go to <it>/v1/traces. */
  OTEL_EXPORTER_OTLP_ENDPOINT: httpUrl.optional(),
  /** The traces URL itself, used as given; wins over OTEL_EXPORTER_OTLP_ENDPOINT. */
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: httpUrl.optional(),
  OTEL_EXPORTER_OTLP_PROTOCOL: otlpProtocol.optional(),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: otlpProtocol.optional(),
  /** Headers of every export (an API key, usually): `name=value,name2=value2`, values URL-encoded. */
  OTEL_EXPORTER_OTLP_HEADERS: otlpHeaders.optional(),
  OTEL_EXPORTER_OTLP_TRACES_HEADERS: otlpHeaders.optional(),
  OTEL_SERVICE_NAME: z.string().default("sharpsharp"),
  OTEL_TRACES_SAMPLER: z
    .enum(TRACE_SAMPLERS, { error: `must be one of ${TRACE_SAMPLERS.join(", ")}` })
    .default("parentbased_always_on"),
  /** The ratio of the traceidratio samplers, 0–1. */
  OTEL_TRACES_SAMPLER_ARG: z.coerce
    .number({ error: "must be a number from 0 to 1" })
    .min(0, { error: "must be a number from 0 to 1" })
    .max(1, { error: "must be a number from 0 to 1" })
    .optional(),
});

export type EnvInput = z.input<typeof envSchema>;
export type ParsedEnv = z.output<typeof envSchema>;
export type LogLevel = (typeof LOG_LEVELS)[number];
export type TraceSamplerName = (typeof TRACE_SAMPLERS)[number];

/** Names of variables whose values must never appear in an error message or a log. */
export const SECRET_ENV_NAMES: ReadonlySet<string> = new Set([
  "WHATSAPP_APP_SECRET",
  "WHATSAPP_VERIFY_TOKEN",
  "WHATSAPP_TOKEN",
  "LLM_API_KEY",
  "LLM_FALLBACK_API_KEY",
  "STT_API_KEY",
  "STT_FALLBACK_API_KEY",
  "TTS_API_KEY",
  "DATABASE_URL",
  "REDIS_URL",
  "REDIS_PASSWORD",
  "REDIS_SENTINEL_PASSWORD",
  "ADMIN_TOKEN",
  "OTEL_EXPORTER_OTLP_HEADERS",
  "OTEL_EXPORTER_OTLP_TRACES_HEADERS",
]);
