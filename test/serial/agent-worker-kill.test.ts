import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createFakeLlm, type FakeLlm } from "../../src/dev/index.js";
import { createLogger } from "../../src/observability/index.js";
import { eventually } from "../support/eventually.js";
import { GRAPH_TOKEN, type RunningFake, startFake } from "../support/fake-graph.js";
import { createIngressHarness, type IngressHarness } from "../support/ingress-harness.js";
import { skipWithoutRedis } from "../support/redis.js";
import { startToolServer, TOOL_SERVER_NETWORK, type ToolServer } from "../support/tool-server.js";
import { textWebhook } from "../support/webhook-builder.js";
import { createWorkerProcesses, type WorkerProcess } from "../support/worker-processes.js";

const ME = "2348033334444";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(skipWithoutRedis)(
  "an agent turn whose worker is killed after the tool call (built CLI)",
  () => {
    let ingress: IngressHarness | undefined;
    let fake: RunningFake | undefined;
    let llm: FakeLlm | undefined;
    let tools: ToolServer | undefined;
    let workers: ReturnType<typeof createWorkerProcesses> | undefined;
    afterEach(async () => {
      workers?.killAll();
      await tools?.close();
      await llm?.close();
      await fake?.fake.close();
      await ingress?.close();
    });

    it("killed twice, run three times: one Idempotency-Key, one effect at the tenant, one reply", async () => {
      ingress = await createIngressHarness({ label: "agent-kill" });
      fake = await startFake();
      llm = createFakeLlm(
        { logger: createLogger({ level: "silent" }) },
        {
          rules: [
            {
              when: { lastUser: "refund", toolOffered: "refund_order" },
              reply: { toolCalls: [{ name: "refund_order", arguments: { orderId: "A1" } }] },
            },
            { when: { afterTool: "refund_order" }, reply: { content: "Refund started for order A1." } },
          ],
        },
      );
      const llmUrl = await llm.listen();
      const effects = new Set<string>();
      let current: WorkerProcess | undefined;
      const spawnWorker = () => {
        current = workers?.spawn();
        return current;
      };
      tools = await startToolServer((request, response) => {
        const key = String(request.headers["idempotency-key"]);
        effects.add(key);
        if ((tools?.requests.length ?? 0) <= 2) {
          // The tenant acted; the worker dies before it can answer the customer.
          current?.child.kill("SIGKILL");
          spawnWorker();
        }
        response.on("error", () => {});
        response.writeHead(200, { "content-type": "application/json" }).end('{"refund":"started"}');
      });
      const dir = mkdtempSync(join(tmpdir(), "agent-kill-"));
      writeFileSync(
        join(dir, "tenants.json"),
        JSON.stringify({
          tenants: [
            {
              id: "default",
              appSecretEnv: "T_SECRET",
              verifyTokenEnv: "T_VERIFY",
              graphTokenEnv: "T_GRAPH",
              phoneNumberIds: ["106540352242922"],
              coalesce: { windowMs: 0, maxMs: 0 },
              tools: [
                {
                  name: "refund_order",
                  description: "Refund an order",
                  method: "POST",
                  url: `${tools.url}/refunds`,
                  allowNetworks: [TOOL_SERVER_NETWORK],
                  sideEffects: true,
                  parameters: {
                    type: "object",
                    required: ["orderId"],
                    properties: { orderId: { type: "string" } },
                  },
                },
              ],
            },
          ],
        }),
      );
      workers = createWorkerProcesses({
        prefix: ingress.prefix,
        graphUrl: fake.url,
        env: {
          WHATSAPP_APP_SECRET: "",
          WHATSAPP_VERIFY_TOKEN: "",
          SHARPSHARP_CONFIG: join(dir, "tenants.json"),
          T_SECRET: "s",
          T_VERIFY: "v",
          T_GRAPH: GRAPH_TOKEN,
          LLM_BASE_URL: `${llmUrl}/v1`,
          LLM_MODEL: "fake",
          AGENT_DEADLINE_MS: "2000",
          WORKER_LOCK_MS: "7000",
          WORKER_STALLED_INTERVAL_MS: "500",
        },
      });
      await spawnWorker()?.ready();
      const body = textWebhook([
        [
          {
            wamid: "wamid.kill.1",
            from: ME,
            timestamp: Math.floor(Date.now() / 1000),
            text: "abeg refund order A1, the food spoil",
          },
        ],
      ]);
      expect((await ingress.post(body)).statusCode).toBe(200);

      await eventually(() => (fake?.fake.messages({ to: ME }).length ?? 0) >= 1, 45_000, 100);
      await sleep(1500);
      const requests = tools.requests;
      process.stdout.write(
        `worker killed after the tool call twice: ${requests.length} tool calls, ${effects.size} distinct Idempotency-Key\n`,
      );
      expect(requests).toHaveLength(3);
      expect(effects.size).toBe(1);
      expect(new Set(requests.map((request) => request.headers["x-sharpsharp-customer"]))).toEqual(
        new Set([ME]),
      );
      const sent = fake.fake.messages({ to: ME });
      expect(sent).toHaveLength(1);
      expect(JSON.stringify(sent[0]?.body)).toContain("Refund started");
    }, 60_000);
  },
);
