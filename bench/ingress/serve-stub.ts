/**
 * The ingress with a queue that records nothing and answers at once: the
 * ceiling of HTTP + signature + JSON + envelope parsing on this machine, to
 * tell the HTTP path's cost from the queue's.
 *
 *   node dist/bench/ingress/serve-stub.js --port 3007 --secret bench-secret [--traces on]
 *
 * `--traces on`: a span per webhook, batched to an exporter that drops them (the cost of making
 * and batching spans, without the network); off (the default) is the gateway's default.
 */

import { parseArgs } from "node:util";
import { createLogger } from "../../src/observability/index.js";
import { buildStubIngressApp } from "./stub-ingress-app.js";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "3007" },
    secret: { type: "string", default: "bench-secret" },
    traces: { type: "string", default: "off" },
  },
});
const logger = createLogger({ level: "warn" });
const app = await buildStubIngressApp({ secret: values.secret, logger, traced: values.traces === "on" });
const url = await app.listen({ host: "127.0.0.1", port: Number(values.port) });
process.stdout.write(`stub ingress listening on ${url}\n`);
process.on("SIGTERM", () => void app.close().then(() => process.exit(0)));
process.on("SIGINT", () => void app.close().then(() => process.exit(0)));
