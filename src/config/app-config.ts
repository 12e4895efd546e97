import type { LogLevel } from "./env-schema.js";
import type { TracingConfig } from "./tracing-config.js";

/** Burst coalescing: wait `windowMs` after the last message, at most `maxMs` after the first (0 = off). */
export interface CoalesceConfig {
  readonly windowMs: number;
  readonly maxMs: number;
}

/** A tenant with its secrets resolved from the environment. */
export interface TenantConfig {
  readonly id: string;
  readonly appSecret: string;
  readonly verifyToken: string;
  readonly graphToken: string | undefined;
  /** Business numbers of this tenant; empty for the env-described `default` tenant without WHATSAPP_PHONE_NUMBER_ID. */
  readonly phoneNumberIds: readonly string[];
  readonly throughputMps: number;
  readonly coalesce: CoalesceConfig;
  readonly staleAfterMs: number;
  /** Fields of the tenants file owned by later capabilities (persona, router, replies, tools, …), as written. */
  readonly settings: Readonly<Record<string, unknown>>;
  /**
   * Values of the environment variables the settings name as `{ env: NAME }`
   * (tool auth headers), by name; a name that is not set is absent.
   */
  readonly secrets?: Readonly<Record<string, string>>;
}

/** One OpenAI-compatible provider (chat completions, transcriptions or speech). */
export interface LlmProviderConfig {
  readonly baseUrl: string;
  readonly apiKey: string | undefined;
  readonly model: string | undefined;
}

/** The whole validated, frozen configuration. Nothing else reads process.env. */
export interface AppConfig {
  readonly server: ServerLimits & { readonly host: string; readonly port: number };
  /** The admin listener: /metrics and the detailed /readyz, apart from the public webhook port. */
  readonly admin: {
    readonly host: string;
    readonly port: number;
    /** When set, every admin request needs `Authorization: Bearer <token>`. A secret: never log it. */
    readonly token: string | undefined;
  };
  /** The operator console (on the admin listener): sessions, cookies, the Meta-silence banner, streams. */
  readonly console: {
    readonly sessionMs: number;
    /** The session cookie's Secure flag: on when operators reach the console over HTTPS. */
    readonly secureCookies: boolean;
    readonly metaSilentMinutes: number;
    readonly maxStreams: number;
    /** Where a console apart from the ingress posts the simulator's webhooks (CONSOLE_INGRESS_URL). */
    readonly ingressUrl: string | undefined;
  };
  readonly redis: {
    /** Where Redis is (REDIS_URL, REDIS_SENTINELS or REDIS_CLUSTER_NODES); undefined: embedded mode. */
    readonly server: RedisServerConfig | undefined;
    /** REDIS_PREFIX as given, for logs. */
    readonly prefix: string;
    /**
     * What every key and BullMQ queue starts with: REDIS_PREFIX, or `{REDIS_PREFIX}` with a cluster
     * (or REDIS_KEY_HASH_TAG=on) so all keys share one hash slot.
     */
    readonly keyPrefix: string;
    /** Start even when Redis's maxmemory-policy may evict keys (REDIS_ALLOW_EVICTION=on); default false. */
    readonly allowEviction: boolean;
  };
  readonly databaseUrl: string | undefined;
  /** The message log's PostgreSQL schema (DATABASE_SCHEMA, default public). */
  readonly databaseSchema: string;
  readonly dataDir: string;
  readonly graph: { readonly baseUrl: string; readonly version: string };
  /** Unset (no LLM_BASE_URL): turns the router cannot resolve get the tenant's fallback reply. */
  readonly llm:
    | (LlmProviderConfig & { readonly fallback: LlmProviderConfig | undefined; readonly timeoutMs: number })
    | undefined;
  readonly agent: { readonly deadlineMs: number; readonly maxToolSteps: number };
  /** How long shutdown waits for running jobs, ms; default AGENT_DEADLINE_MS + 10,000 (a turn and its send). */
  readonly shutdownGraceMs: number;
  /** Speech to text for voice notes; a tenant's `media.stt` replaces it for that tenant. */
  readonly stt:
    | (LlmProviderConfig & {
        readonly fallback: LlmProviderConfig | undefined;
        readonly timeoutMs: number;
        readonly pricePerMinuteUsd: number | undefined;
      })
    | undefined;
  /** One transcription's limit, ms (STT_TIMEOUT_MS), for STT_* and the tenants' own providers alike. */
  readonly sttTimeoutMs: number;
  /** Voice replies (text to speech), for tenants with `media.voiceReplies`. */
  readonly tts: (LlmProviderConfig & { readonly voice: string | undefined }) | undefined;
  /** Host suffixes the Graph token may be sent to for media downloads; undefined: Meta's own. */
  readonly mediaHosts: readonly string[] | undefined;
  readonly ingress: {
    /** Longest the webhook waits for a durable enqueue before answering 503, in ms. */
    readonly enqueueTimeoutMs: number;
    /** How long a message id is remembered for dedupe, in seconds (at least 7 days). */
    readonly dedupeTtlSeconds: number;
  };
  /** Crash recovery of worker processes: a dead worker's jobs are taken over within about lockMs + stalledIntervalMs. */
  readonly worker: {
    /** BullMQ job lock, conversation turn lock and agent slot lease without renewal, ms (default 6,000). */
    readonly lockMs: number;
    /** BullMQ stalled-job check interval, ms (default 3,000). */
    readonly stalledIntervalMs: number;
    /** Runs of one turn before it is set aside (default 5). */
    readonly maxTurnAttempts: number;
  };
  /** Crash recovery of campaign sends (CAMPAIGN_* variables). */
  readonly campaigns: {
    /** A claim not settled within this becomes `unknown`, ms (default 60,000). */
    readonly leaseMs: number;
    /** An `unknown` send with no status after this is sent again, ms (default 900,000). */
    readonly unknownGraceMs: number;
    /** How often abandoned claims are looked for, ms (default 5,000). */
    readonly recoverEveryMs: number;
  };
  readonly logLevel: LogLevel;
  /** OpenTelemetry traces, exported over OTLP/HTTP; undefined (the default): tracing is off. */
  readonly tracing: TracingConfig | undefined;
  readonly tenants: readonly TenantConfig[];
  /** The tenants file that was read, if any. */
  readonly configFile: string | undefined;
}

/** One Redis server address. */
export interface RedisNodeAddress {
  readonly host: string;
  readonly port: number;
}

/** PEM contents read from the REDIS_TLS_*_FILE files at start; absent: the system's CAs, no client certificate. */
export interface RedisTlsConfig {
  readonly ca?: string;
  readonly cert?: string;
  /** The client certificate's private key: a secret, never logged. */
  readonly key?: string;
}

/** How to reach Redis: one primary by URL, a primary found through Sentinel, or a Cluster. */
export type RedisServerConfig =
  | {
      readonly kind: "single";
      /** REDIS_URL (credentials and database inside); a secret. */
      readonly url: string;
      /** Set for rediss:// URLs. */
      readonly tls: RedisTlsConfig | undefined;
    }
  | (RedisCredentials & {
      readonly kind: "sentinel";
      readonly sentinels: readonly RedisNodeAddress[];
      readonly masterName: string;
      readonly sentinelUsername: string | undefined;
      readonly sentinelPassword: string | undefined;
    })
  | (RedisCredentials & { readonly kind: "cluster"; readonly nodes: readonly RedisNodeAddress[] });

/** The data nodes' login and TLS, for Sentinel and Cluster. */
export interface RedisCredentials {
  readonly username: string | undefined;
  readonly password: string | undefined;
  /** Set when REDIS_TLS=on (the same TLS is used towards the sentinels). */
  readonly tls: RedisTlsConfig | undefined;
}

/** How the public listener bounds each client (INGRESS_* variables; defaults in env-schema.ts). */
export interface ServerLimits {
  /** Largest accepted body, bytes; default 3 MiB (Meta documents webhook payloads up to 3 MB). */
  readonly bodyLimitBytes: number;
  /** The whole request, headers and body, must arrive within this, ms; default 15,000. */
  readonly requestTimeoutMs: number;
  /** The headers must arrive within this, ms; default 5,000. */
  readonly headersTimeoutMs: number;
  /** An idle keep-alive connection is closed after this, ms; default 65,000. */
  readonly keepAliveTimeoutMs: number;
  /** A socket with no traffic at all is closed after this, ms; default 70,000. */
  readonly idleTimeoutMs: number;
  /** Connections open at once; past it new ones are refused. Default 8,192. */
  readonly maxConnections: number;
}

/** The tenant the single-tenant environment variables describe, served at `/webhook`. */
export const DEFAULT_TENANT_ID = "default";
