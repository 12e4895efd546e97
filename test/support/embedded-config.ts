import { type AppConfig, loadConfig } from "../../src/config/index.js";
import { signatureFor } from "../../src/ingress/index.js";
import { GRAPH_TOKEN } from "./fake-graph.js";
import { APP_SECRET } from "./ingress-harness.js";

/**
 * What `sharpsharp start` loads: the single-tenant environment sending to
 * `graphUrl`, coalescing off, on ephemeral loopback ports; `extra` adds the
 * backend (SHARPSHARP_DATA_DIR, or REDIS_URL / REDIS_SENTINELS / …) and
 * overrides the rest.
 */
export function startEnvConfig(graphUrl: string, extra: Record<string, string> = {}): AppConfig {
  return loadConfig({
    env: {
      WHATSAPP_APP_SECRET: APP_SECRET,
      WHATSAPP_VERIFY_TOKEN: "v",
      WHATSAPP_TOKEN: GRAPH_TOKEN,
      GRAPH_API_BASE_URL: graphUrl,
      HOST: "127.0.0.1",
      PORT: "0",
      ADMIN_PORT: "0",
      COALESCE_WINDOW_MS: "0",
      COALESCE_MAX_MS: "0",
      ...extra,
    },
    cwd: process.cwd(),
  });
}

/** What `sharpsharp start` loads without REDIS_URL: startEnvConfig embedded on `dataDir`. */
export function embeddedEnvConfig(
  graphUrl: string,
  dataDir: string,
  extra: Record<string, string> = {},
): AppConfig {
  return startEnvConfig(graphUrl, { SHARPSHARP_DATA_DIR: dataDir, ...extra });
}

/** POSTs a webhook body to `${baseUrl}/webhook`, signed with the test app secret as Meta signs it. */
export function postSignedWebhook(baseUrl: string, body: string | Buffer): Promise<Response> {
  return fetch(`${baseUrl}/webhook`, {
    method: "POST",
    body,
    headers: { "content-type": "application/json", "x-hub-signature-256": signatureFor(body, APP_SECRET) },
  });
}
