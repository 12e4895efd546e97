import type { DemoState } from "./demo-state.js";

export interface DemoBannerInput {
  readonly state: DemoState;
  /** The secrets were made by this start: the only time they are printed. */
  readonly created: boolean;
  /** Where demo.json lives. */
  readonly file: string;
  readonly webhookUrl: string;
  readonly graphUrl: string;
  readonly llmUrl: string;
  /** The fake speech server's base URL, with /v1. */
  readonly sttUrl: string;
  /** The gateway's admin listener's /metrics. */
  readonly metricsUrl: string;
  /** The console; `password` only on the start that made it (shown once). */
  readonly console?: { readonly url: string; readonly email: string; readonly password: string | undefined };
}

/**
 * The demo's terminal block: what runs, where, and how to talk to it. The
 * secrets appear only when `created`; later starts say where they are kept.
 */
export function demoBanner(input: DemoBannerInput): string {
  const { secrets } = input.state;
  const secretLines = input.created
    ? [
        `New demo secrets, shown this once (kept in ${input.file}, readable by you only):`,
        `  WHATSAPP_APP_SECRET=${secrets.appSecret}`,
        `  WHATSAPP_VERIFY_TOKEN=${secrets.verifyToken}`,
        `  WHATSAPP_TOKEN=${secrets.graphToken}`,
        "",
      ]
    : [`Demo secrets: kept in ${input.file} (readable by you only).`, ""];
  return [
    "",
    "sharpsharp demo: no WhatsApp configuration found, so this runs against a fake",
    "WhatsApp Graph API, a fake LLM and a fake speech server on this machine.",
    "Nothing reaches Meta.",
    "",
    `  Webhook       ${input.webhookUrl}`,
    `  Fake Graph    ${input.graphUrl}   (the bot's replies land here)`,
    `  Fake LLM      ${input.llmUrl}`,
    `  Fake speech   ${input.sttUrl}   (hears voice notes)`,
    `  Metrics       ${input.metricsUrl}`,
    ...(input.console === undefined
      ? []
      : [
          `  Console       ${input.console.url}   (log in as ${input.console.email}; try the Simulator)`,
          ...(input.console.password === undefined
            ? [`                password: "consolePassword" in ${input.file}`]
            : [`                password (shown this once): ${input.console.password}`]),
        ]),
    "",
    ...secretLines,
    "Send a customer message from another terminal:",
    '  npx sharpsharp simulate "abeg my transfer never enter"',
    '  npm run simulate -- "hi"',
    "  npx sharpsharp simulate --voice test/fixtures/media/voice-note-pidgin.ogg   (a voice note)",
    "",
    "To run for real, set WHATSAPP_APP_SECRET, WHATSAPP_VERIFY_TOKEN, WHATSAPP_TOKEN and",
    "WHATSAPP_PHONE_NUMBER_ID (docs/configuration.md). Ctrl+C stops the demo.",
    "",
  ].join("\n");
}
