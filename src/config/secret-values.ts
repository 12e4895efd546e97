import type { AppConfig } from "./app-config.js";

/**
 * Every secret value the configuration holds, for the logger to redact
 * wherever one appears: the tenants' app secrets, verify and Graph tokens and
 * `{ env }` secrets, the LLM, STT and TTS keys, ADMIN_TOKEN, the passwords in
 * REDIS_URL and DATABASE_URL, and the OTLP exporter's header values.
 */
export function secretValuesOf(config: AppConfig): string[] {
  const urlPassword = (url: string | undefined): string | undefined => {
    if (url === undefined || !URL.canParse(url)) return undefined;
    const { password } = new URL(url);
    return password === "" ? undefined : decodeURIComponent(password);
  };
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
    urlPassword(config.redis.url),
    urlPassword(config.databaseUrl),
    ...Object.values(config.tracing?.headers ?? {}),
    urlPassword(config.tracing?.url),
  ];
  return [...new Set(values.filter((value): value is string => value !== undefined && value !== ""))];
}
