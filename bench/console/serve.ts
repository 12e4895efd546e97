/**
 * The whole embedded gateway for the console bench: ingress, turns (the
 * router answers), sender, message log and console in one process, against a
 * fake Graph API in this process. Prints one JSON line with its URLs, then
 * runs until SIGTERM.
 *
 *   node dist/bench/console/serve.js --data-dir /tmp/ss-console-bench --secret bench-secret
 */
import { parseArgs } from "node:util";
import { startEmbedded } from "../../src/app/index.js";
import { loadConfig } from "../../src/config/index.js";
import { createFakeGraphApi } from "../../src/dev/index.js";
import { createLogger } from "../../src/observability/index.js";

const { values } = parseArgs({
  options: {
    "data-dir": { type: "string", default: `/tmp/ss-console-bench-${Date.now()}` },
    secret: { type: "string", default: "bench-secret" },
  },
});
const logger = createLogger({ level: "warn" });
const graph = createFakeGraphApi({ logger }, { tokens: ["bench-graph-token"], maxRecords: 1000 });
const graphUrl = await graph.listen({ host: "127.0.0.1", port: 0 });
const config = loadConfig({
  env: {
    WHATSAPP_APP_SECRET: values.secret,
    WHATSAPP_VERIFY_TOKEN: "bench-verify",
    WHATSAPP_TOKEN: "bench-graph-token",
    WHATSAPP_PHONE_NUMBER_ID: "106540352242922",
    GRAPH_API_BASE_URL: graphUrl,
    SHARPSHARP_DATA_DIR: values["data-dir"],
    HOST: "127.0.0.1",
    PORT: "0",
    ADMIN_PORT: "0",
    LOG_LEVEL: "warn",
  },
  cwd: process.cwd(),
});
const gateway = await startEmbedded(config, {
  logger,
  ensureOperator: {
    email: "bench@console.local",
    name: "Bench",
    password: "bench console password",
    grants: [{ tenantId: "*", role: "admin" }],
  },
});
process.stdout.write(
  `${JSON.stringify({ webhookUrl: `${gateway.url}/webhook`, consoleUrl: gateway.adminUrl })}\n`,
);
const stop = async () => {
  await gateway.close();
  await graph.close();
  process.exit(0);
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
