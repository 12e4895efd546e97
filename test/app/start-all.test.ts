import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { startAll } from "../../src/app/index.js";
import { createLogger } from "../../src/observability/index.js";
import { embeddedEnvConfig, postSignedWebhook } from "../support/embedded-config.js";
import { eventually } from "../support/eventually.js";
import { startFake } from "../support/fake-graph.js";
import { BACKENDS, skipBackend } from "../support/gateway-harness.js";
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from "../support/redis.js";
import { textWebhook } from "../support/webhook-builder.js";

describe.each(BACKENDS)("sharpsharp start on %s (ingress and workers in one process)", (backend) => {
  const prefix = uniquePrefix("start-all");
  const dataDir = mkdtempSync(join(tmpdir(), "ss-start-all-"));
  afterAll(async () => {
    rmSync(dataDir, { recursive: true, force: true });
    if (backend !== "redis" || skipBackend(backend)) return;
    const admin = new Redis(TEST_REDIS_URL);
    await deleteKeys(admin, prefix);
    admin.disconnect();
  });

  it.skipIf(skipBackend(backend))(
    "answers a signed webhook and serves the workers' metrics on the ingress's /metrics",
    async () => {
      const fake = await startFake();
      // Without REDIS_URL, startAll runs embedded on SQLite in SHARPSHARP_DATA_DIR.
      const config = embeddedEnvConfig(
        fake.url,
        dataDir,
        backend === "redis" ? { REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: prefix } : {},
      );
      const running = await startAll(config, { logger: createLogger({ level: "silent" }) });
      try {
        await eventually(async () => (await fetch(`${running.url}/readyz`)).status === 200);
        const body = textWebhook([
          [
            {
              wamid: "wamid.start.1",
              from: "2348090000009",
              timestamp: Math.floor(Date.now() / 1000),
              text: "hi",
            },
          ],
        ]);
        const response = await postSignedWebhook(running.url, body);
        expect(response.status).toBe(200);
        await eventually(() => fake.fake.messages().length === 1, 5000);
        const metrics = await (await fetch(`${running.adminUrl}/metrics`)).text();
        expect(metrics).toContain("ss_ingress_requests_total");
        expect(metrics).toMatch(/ss_turn_latency_seconds_count\{tenant="default"\} 1/);
        expect(metrics).toContain("ss_outbound_sends_total");
      } finally {
        await running.close();
        await fake.fake.close();
      }
    },
    15_000,
  );
});
