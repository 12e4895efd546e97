/**
 * Runs sharpsharp's own ingress for a benchmark: the real composition root
 * (startIngress), a fresh Redis prefix, logging at warn.
 *
 *   node dist/bench/ingress/serve-sharpsharp.js --port 3001 --prefix bench-ss-123 --secret s3cret \
 *     [--redis URL]
 */
import { parseArgs } from "node:util";
import { startIngress } from "../../src/app/index.js";
import { loadConfig } from "../../src/config/index.js";
import { createLogger } from "../../src/observability/index.js";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "3001" },
    prefix: { type: "string", default: `bench-ss-${Date.now()}` },
    secret: { type: "string", default: "bench-secret" },
    redis: { type: "string", default: "redis://127.0.0.1:6379" },
  },
});

const config = loadConfig({
  env: {
    WHATSAPP_APP_SECRET: values.secret,
    WHATSAPP_VERIFY_TOKEN: "bench-verify",
    REDIS_URL: values.redis,
    REDIS_PREFIX: values.prefix,
    HOST: "127.0.0.1",
    PORT: values.port,
    ADMIN_PORT: "0",
    LOG_LEVEL: "warn",
  },
  cwd: process.cwd(),
});
const running = await startIngress(config, { logger: createLogger({ level: "warn" }) });
process.stdout.write(`sharpsharp ingress listening on ${running.url} prefix ${values.prefix}\n`);
// The benchmark polls its /metrics until every recorded conversation is claimable.
process.stdout.write(`admin ${running.adminUrl}\n`);
const stop = () => {
  running.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
