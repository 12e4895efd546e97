import { type AppConfig, DEFAULT_TENANT_ID } from "../config/index.js";
import { DEMO_PHONE_NUMBER_ID, type DemoState, demoFilePath } from "./demo-state.js";
import { DemoError } from "./errors.js";
import type { SimulateTarget } from "./simulate.js";

/**
 * Where `simulate` posts and what it signs with. With WhatsApp configured
 * in the environment (the `default` tenant), that configuration: its app
 * secret, GRAPH_API_BASE_URL (which must be a fake) and PORT on loopback.
 * Otherwise the running demo, from its demo.json. `url` replaces the webhook URL.
 */
export function resolveSimulateTarget(
  config: AppConfig,
  demo: DemoState | undefined,
  url: string | undefined,
): SimulateTarget {
  const tenant = config.tenants.find((candidate) => candidate.id === DEFAULT_TENANT_ID);
  if (tenant !== undefined) {
    return {
      webhookUrl: url ?? `http://127.0.0.1:${config.server.port}/webhook`,
      graphUrl: config.graph.baseUrl,
      appSecret: tenant.appSecret,
      phoneNumberId: tenant.phoneNumberIds[0] ?? DEMO_PHONE_NUMBER_ID,
    };
  }
  if (demo?.running === undefined) {
    throw new DemoError(
      "notRunning",
      `no demo found (${demoFilePath(config.dataDir)} ${demo === undefined ? "does not exist" : "has never been started"}): ` +
        "start it with `npm start` (no WhatsApp configuration needed) in another terminal, " +
        "or set WHATSAPP_APP_SECRET and --url to simulate against your own gateway",
    );
  }
  return {
    webhookUrl: url ?? demo.running.webhookUrl,
    graphUrl: demo.running.graphUrl,
    appSecret: demo.secrets.appSecret,
    phoneNumberId: demo.phoneNumberId,
  };
}
