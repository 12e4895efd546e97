import type { AppConfig, RedisServerConfig } from "./app-config.js";

function redisSecrets(server: RedisServerConfig | undefined): (string | undefined)[] {
  if (server === undefined) return [];
  if (server.kind === "single") return [urlPassword(server.url), server.tls?.key];
  const ofSentinels = server.kind === "sentinel" ? [server.sentinelPassword] : [];
  return [server.password, server.tls?.key, ...ofSentinels];
}

function urlPassword(url: string | undefined): string | undefined {
  if (url === undefined || !URL.canParse(url)) return undefined;
  const { password } = new URL(url);
  return password === "" ? undefined : decodeURIComponent(password);
}

/**
 * Every secret value the configuration holds, for the logger to redact
 * wherever one appears: the tenants' app secrets, verify and Graph tokens and
 * `{ env }` secrets, the LLM, STT and TTS keys, ADMIN_TOKEN, the passwords in
 * REDIS_URL and DATABASE_URL, REDIS_PASSWORD, REDIS_SENTINEL_PASSWORD, the Redis TLS key, and the OTLP
 * exporter's header values.
 */
export function secretValuesOf(config: AppConfig): string[] {
  const values = [
    ...config.tenants.flatMap((tenant) => [
      tenant.appSecret,
      tenant.verifyToken,
      tenant.graphToken,
      ...Object.values(tenant.secrets ?? {}),
    ]),
    config.llm?.apiKey,
    config.llm?.fallback?.apiKey,
    config.stt?.apiKey,
    config.stt?.fallback?.apiKey,
    config.tts?.apiKey,
    config.admin.token,
    ...redisSecrets(config.redis.server),
    urlPassword(config.databaseUrl),
    ...Object.values(config.tracing?.headers ?? {}),
    urlPassword(config.tracing?.url),
  ];
  return [...new Set(values.filter((value): value is string => value !== undefined && value !== ""))];
}
