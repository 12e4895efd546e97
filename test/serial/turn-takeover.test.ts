import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createFakeLlm, type FakeLlm } from "../../src/dev/index.js";
import { createLogger } from "../../src/observability/index.js";
import { eventually } from "../support/eventually.js";
import { GRAPH_TOKEN, type RunningFake, startFake } from "../support/fake-graph.js";
import { APP_SECRET, createIngressHarness, type IngressHarness } from "../support/ingress-harness.js";
import { skipWithoutRedis } from "../support/redis.js";
import { textWebhook } from "../support/webhook-builder.js";
import { createWorkerProcesses } from "../support/worker-processes.js";

const ME = "2348033336666";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * With the default WORKER_LOCK_MS and WORKER_STALLED_INTERVAL_MS: a live
 * worker's long agent turn is never taken over (its leases are renewed),
 * and a dead worker's turn is taken over in seconds, not a minute.
 */
describe.skipIf(skipWithoutRedis)("turn takeover at the default leases (built CLI, Redis)", () => {
  const opened: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of opened.splice(0).reverse()) await close().catch(() => {});
  });

  const setUp = async (label: string) => {
    const ingress: IngressHarness = await createIngressHarness({ label });
    opened.push(() => ingress.close());
    const fake: RunningFake = await startFake();
    opened.push(() => fake.fake.close());
    const llm: FakeLlm = createFakeLlm(
      { logger: createLogger({ level: "silent" }) },
      { rules: [{ when: { lastUser: "card" }, reply: { content: "Your card is fine now." } }] },
    );
    const llmUrl = await llm.listen();
    opened.push(() => llm.close());
    const dir = mkdtempSync(join(tmpdir(), "takeover-"));
    opened.push(async () => rmSync(dir, { recursive: true, force: true }));
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
          },
        ],
      }),
    );
    // No WORKER_LOCK_MS or WORKER_STALLED_INTERVAL_MS: the defaults are what is tested.
    const workers = createWorkerProcesses({
      prefix: ingress.prefix,
      graphUrl: fake.url,
      env: {
        WHATSAPP_APP_SECRET: "",
        WHATSAPP_VERIFY_TOKEN: "",
        SHARPSHARP_CONFIG: join(dir, "tenants.json"),
        T_SECRET: APP_SECRET,
        T_VERIFY: "v",
        T_GRAPH: GRAPH_TOKEN,
        LLM_BASE_URL: `${llmUrl}/v1`,
        LLM_MODEL: "fake",
        AGENT_DEADLINE_MS: "40000",
        LLM_TIMEOUT_MS: "35000",
      },
    });
    opened.push(async () => workers.killAll());
    const post = async (wamid: string, text: string) => {
      const body = textWebhook([[{ wamid, from: ME, timestamp: Math.floor(Date.now() / 1000), text }]]);
      expect((await ingress.post(body)).statusCode).toBe(200);
    };
    return { fake, llm, workers, post };
  };

  it("a 25 s LLM call on a live worker is never taken over by the other worker", async () => {
    const { fake, llm, workers, post } = await setUp("takeover-live");
    llm.setFaults({ latencyMs: 25_000 });
    const first = workers.spawn();
    await first.ready();
    await post("wamid.long.1", "my card dey do somehow");
    await eventually(() => llm.requests().length === 1, 10_000, 20);
    const second = workers.spawn();
    await second.ready();
    await eventually(() => fake.fake.messages({ to: ME }).length >= 1, 40_000, 100);
    await sleep(2000);
    process.stdout.write(
      `a 25 s LLM call at the default leases: ${llm.requests().length} LLM call(s), ${fake.fake.messages({ to: ME }).length} reply\n`,
    );
    expect(llm.requests()).toHaveLength(1);
    const sent = fake.fake.messages({ to: ME });
    expect(sent).toHaveLength(1);
    // The model's own answer, after the whole call: not a holding or fallback reply.
    expect(JSON.stringify(sent[0]?.body)).toContain("Your card is fine now.");
  }, 60_000);

  it("a worker killed mid-turn is taken over by a live one within 15 s", async () => {
    const { fake, llm, workers, post } = await setUp("takeover-dead");
    llm.setFaults({ hangNext: 1 });
    const doomed = workers.spawn();
    await doomed.ready();
    await post("wamid.dead.1", "my card dey do somehow");
    await eventually(() => llm.requests().length === 1, 10_000, 20);
    // The live worker is up before the holder dies: what is measured is the takeover, not a start.
    await workers.spawn().ready();
    doomed.child.kill("SIGKILL");
    const killedAt = Date.now();
    await eventually(() => llm.requests().length >= 2, 20_000, 20);
    const takeoverMs = Date.now() - killedAt;
    await eventually(() => fake.fake.messages({ to: ME }).length >= 1, 10_000, 50);
    process.stdout.write(`takeover of a dead worker's turn at the default leases: ${takeoverMs} ms\n`);
    expect(takeoverMs).toBeLessThan(15_000);
    expect(fake.fake.messages({ to: ME })).toHaveLength(1);
  }, 60_000);
});
