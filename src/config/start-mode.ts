import { findDefaultTenantsFile } from "./read-tenants-file.js";

/**
 * Variables that describe a real WhatsApp setup. Any one of them set means
 * the user is configuring the gateway: `sharpsharp start` then runs it (and
 * reports what is missing) rather than quietly starting the demo instead.
 */
const WHATSAPP_SETUP_NAMES = [
  "WHATSAPP_APP_SECRET",
  "WHATSAPP_VERIFY_TOKEN",
  "WHATSAPP_TOKEN",
  "WHATSAPP_PHONE_NUMBER_ID",
  "SHARPSHARP_CONFIG",
  // A shared queue or database means production: a demo there could take real jobs off its queues.
  "REDIS_URL",
  "REDIS_SENTINELS",
  "REDIS_CLUSTER_NODES",
  "DATABASE_URL",
] as const;

/**
 * The user's variables the demo keeps: where to listen, where data lives,
 * how much to log. Everything WhatsApp, Graph API and LLM is the demo's own
 * (its fakes), and it always runs embedded, so none of those is on this list.
 */
export const DEMO_PASSTHROUGH_NAMES = [
  "HOST",
  "PORT",
  "ADMIN_HOST",
  "ADMIN_PORT",
  "ADMIN_TOKEN",
  "SHARPSHARP_DATA_DIR",
  "LOG_LEVEL",
  "COALESCE_WINDOW_MS",
  "COALESCE_MAX_MS",
] as const;

export type DemoPassthroughName = (typeof DEMO_PASSTHROUGH_NAMES)[number];

/** What `sharpsharp start` runs: the demo (with the user's passthrough variables) or the real gateway. */
export type StartChoice =
  | { readonly mode: "demo"; readonly env: Readonly<Partial<Record<DemoPassthroughName, string>>> }
  | { readonly mode: "gateway" };

function isSet(value: string | undefined): value is string {
  return value !== undefined && value.trim() !== "";
}

/**
 * Demo or gateway: the demo only when nothing WhatsApp is configured (no
 * WHATSAPP_* variable, no SHARPSHARP_CONFIG, no default tenants file in the
 * working directory) and no shared backend is (no REDIS_URL, no DATABASE_URL:
 * then the gateway starts, and says which WHATSAPP_* variables are missing).
 * Pure: the caller says whether a default file exists.
 */
export function chooseStartMode(
  env: Readonly<Record<string, string | undefined>>,
  options: { readonly defaultTenantsFile: boolean },
): StartChoice {
  if (options.defaultTenantsFile || WHATSAPP_SETUP_NAMES.some((name) => isSet(env[name]))) {
    return { mode: "gateway" };
  }
  const kept: Partial<Record<DemoPassthroughName, string>> = {};
  for (const name of DEMO_PASSTHROUGH_NAMES) {
    const value = env[name];
    if (isSet(value)) kept[name] = value.trim();
  }
  return { mode: "demo", env: kept };
}

/** chooseStartMode for this process: its environment and working directory. */
export function loadStartChoiceFromProcess(): StartChoice {
  return chooseStartMode(process.env, {
    defaultTenantsFile: findDefaultTenantsFile(process.cwd()) !== undefined,
  });
}
