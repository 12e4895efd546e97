import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createFakeLlm, type FakeLlm } from "../../src/dev/index.js";
import { createLogger } from "../../src/observability/index.js";
import { postSignedWebhook } from "../support/embedded-config.js";
import { type EmbeddedProcess, spawnEmbedded } from "../support/embedded-process.js";
import { eventually } from "../support/eventually.js";
import { GRAPH_TOKEN, type RunningFake, startFake } from "../support/fake-graph.js";
import { APP_SECRET, createIngressHarness, type IngressHarness } from "../support/ingress-harness.js";
import { skipWithoutRedis } from "../support/redis.js";
import { type ReceivedRequest, startToolServer, type ToolServer } from "../support/tool-server.js";
import { textWebhook } from "../support/webhook-builder.js";
import { createWorkerProcesses } from "../support/worker-processes.js";

/**
 * The turn journal's promise, process by process: a turn cut off by SIGKILL
 * or SIGTERM at each of its steps, while the customer's next message
 * arrives, ends with one reply per turn, one effect per side-effect call and
 * one Confirm prompt, on both backends.
 */

const ME = "2348033335555";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Where the turn is when the process is stopped. */
type KillPoint =
  /** The first LLM call answered with a tool call; the tenant's API has the request, unanswered. */
  | "tool"
  /** The tool answered; the second LLM call is in flight. */
  | "llm"
  /** The answer is queued and its send is in flight at the Graph API. */
  | "send"
  /** A Confirm prompt is queued and its send is in flight. */
  | "confirm";

interface Gateway {
  start(): Promise<void>;
  post(body: string | Buffer): Promise<void>;
  /** Signals the running process and waits for it to exit. */
  stop(signal: "SIGKILL" | "SIGTERM"): Promise<void>;
  close(): Promise<void>;
}

function tenantsFile(dir: string, toolsUrl: string): string {
  const path = join(dir, "tenants.json");
  const object = { type: "object", required: ["orderId"], properties: { orderId: { type: "string" } } };
  writeFileSync(
    path,
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
              url: `${toolsUrl}/refunds`,
              allowNetworks: ["127.0.0.1"],
              parameters: object,
            },
            {
              name: "cancel_order",
              description: "Cancel an order",
              method: "POST",
              url: `${toolsUrl}/cancel`,
              allowNetworks: ["127.0.0.1"],
              confirm: true,
              parameters: object,
            },
          ],
        },
      ],
    }),
  );
  return path;
}

function gatewayEnv(configPath: string, llmUrl: string): Record<string, string> {
  return {
    WHATSAPP_APP_SECRET: "",
    WHATSAPP_VERIFY_TOKEN: "",
    SHARPSHARP_CONFIG: configPath,
    T_SECRET: APP_SECRET,
    T_VERIFY: "v",
    T_GRAPH: GRAPH_TOKEN,
    LLM_BASE_URL: `${llmUrl}/v1`,
    LLM_MODEL: "fake",
    AGENT_DEADLINE_MS: "20000",
    // A dead process's work is taken over quickly; a live one renews its leases.
    WORKER_LOCK_MS: "2000",
    WORKER_STALLED_INTERVAL_MS: "500",
    SHUTDOWN_GRACE_MS: "15000",
  };
}

async function waitExit(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => child.once("exit", () => resolve()));
}

function embeddedGateway(graphUrl: string, env: Record<string, string>): Gateway {
  const dataDir = mkdtempSync(join(tmpdir(), "kill-matrix-"));
  let running: EmbeddedProcess | undefined;
  let baseUrl = "";
  return {
    async start() {
      running = spawnEmbedded({ dataDir, graphUrl, env });
      baseUrl = await running.ready();
    },
    async post(body) {
      expect((await postSignedWebhook(baseUrl, body)).status).toBe(200);
    },
    async stop(signal) {
      const child = running?.child as ChildProcess;
      child.kill(signal);
      await waitExit(child);
    },
    async close() {
      running?.child.kill("SIGKILL");
      if (running !== undefined) await waitExit(running.child);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function redisGateway(graphUrl: string, env: Record<string, string>): Promise<Gateway> {
  const ingress: IngressHarness = await createIngressHarness({ label: "kill-matrix" });
  const workers = createWorkerProcesses({ prefix: ingress.prefix, graphUrl, env });
  let child: ChildProcess | undefined;
  return {
    async start() {
      const worker = workers.spawn();
      child = worker.child;
      await worker.ready();
    },
    async post(body) {
      expect((await ingress.post(body)).statusCode).toBe(200);
    },
    async stop(signal) {
      child?.kill(signal);
      if (child !== undefined) await waitExit(child);
    },
    async close() {
      workers.killAll();
      await ingress.close();
    },
  };
}

describe("a turn stopped at each step, with the next message arriving (built CLI)", () => {
  const opened: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of opened.splice(0).reverse()) await close().catch(() => {});
  });

  const cases: [string, "SIGKILL" | "SIGTERM", KillPoint][] = [];
  for (const backend of ["embedded", "redis"])
    for (const signal of ["SIGKILL", "SIGTERM"] as const)
      for (const point of ["tool", "llm", "send", "confirm"] as const) cases.push([backend, signal, point]);

  it.each(cases)(
    "%s, %s at %s: one reply per turn, one effect, one Confirm prompt",
    async (backend, signal, point) => {
      if (backend === "redis" && skipWithoutRedis) return;
      const fake: RunningFake = await startFake();
      opened.push(() => fake.fake.close());
      const llm: FakeLlm = createFakeLlm(
        { logger: createLogger({ level: "silent" }) },
        {
          rules: [
            {
              when: { lastUser: "refund", toolOffered: "refund_order" },
              reply: { toolCalls: [{ name: "refund_order", arguments: { orderId: "A1" } }] },
            },
            { when: { afterTool: "refund_order" }, reply: { content: "Refund started for order A1." } },
            {
              when: { lastUser: "cancel", toolOffered: "cancel_order" },
              reply: { toolCalls: [{ name: "cancel_order", arguments: { orderId: "B2" } }] },
            },
            { when: { lastUser: "thanks" }, reply: { content: "You are welcome, my friend." } },
          ],
        },
      );
      const llmUrl = await llm.listen();
      opened.push(() => llm.close());

      // The tenant's API: one effect per Idempotency-Key; at "tool" the first request is held unanswered.
      const effects = new Set<string>();
      let holdFirst = point === "tool";
      let held: ServerResponse | undefined;
      const answer = (request: ReceivedRequest, response: ServerResponse) => {
        effects.add(String(request.headers["idempotency-key"]));
        response.on("error", () => {});
        response.writeHead(200, { "content-type": "application/json" }).end('{"refund":"started"}');
      };
      let lastRequest: ReceivedRequest | undefined;
      const tools: ToolServer = await startToolServer((request, response) => {
        lastRequest = request;
        if (holdFirst) {
          holdFirst = false;
          held = response;
          return;
        }
        // At "llm" the model's next call (about this result) is held; at "send" the reply's send.
        if (point === "llm" && tools.requests.length === 1) llm.setFaults({ hangNext: 1 });
        if (point === "send" && tools.requests.length === 1) fake.fake.setFaults({ hangRate: 1 });
        answer(request, response);
      });
      opened.push(() => tools.close());

      const dir = mkdtempSync(join(tmpdir(), "kill-matrix-config-"));
      opened.push(async () => rmSync(dir, { recursive: true, force: true }));
      const env = gatewayEnv(tenantsFile(dir, tools.url), llmUrl);
      const gateway =
        backend === "redis" ? await redisGateway(fake.url, env) : embeddedGateway(fake.url, env);
      opened.push(() => gateway.close());
      await gateway.start();

      const now = Math.floor(Date.now() / 1000);
      const asking = point === "confirm" ? "abeg cancel order B2" : "abeg refund order A1, the food spoil";
      if (point === "confirm") {
        // The prompt's send hangs once the turn is under way (after its mark-read went through).
        await gateway.post(
          textWebhook([[{ wamid: "wamid.km.0", from: ME, timestamp: now - 1, text: "thanks" }]]),
        );
        await eventually(() => fake.fake.messages({ to: ME }).length >= 1, 15_000, 20);
        fake.fake.setFaults({ hangRate: 1 });
      }
      await gateway.post(textWebhook([[{ wamid: "wamid.km.1", from: ME, timestamp: now, text: asking }]]));
      const hungSend = () => fake.fake.requests().some((r) => r.outcome === "hung");
      await eventually(
        () => {
          if (point === "tool") return held !== undefined;
          if (point === "llm") return llm.requests().some((r) => r.outcome === "hung");
          return hungSend();
        },
        20_000,
        20,
      );
      // The customer writes again while the turn is cut off.
      const next = { wamid: "wamid.km.2", from: ME, timestamp: now + 1, text: "thanks o" };
      await gateway.post(textWebhook([[next]]));
      await sleep(100);

      const stopped = gateway.stop(signal);
      if (signal === "SIGTERM") {
        // A graceful stop lets the turn in flight go on: what it waits for answers now.
        await sleep(200);
        if (held !== undefined && lastRequest !== undefined) answer(lastRequest, held);
        llm.setFaults({ hang: false });
        fake.fake.setFaults({ hangRate: 0 });
      }
      await stopped;
      llm.setFaults({ hang: false });
      fake.fake.setFaults({ hangRate: 0 });
      await gateway.start();

      const texts = () => fake.fake.messages({ to: ME }).map((message) => JSON.stringify(message.body));
      const expected = point === "confirm" ? 3 : 2;
      await eventually(() => texts().length >= expected, 30_000, 50);
      await sleep(1500);
      const sent = texts();
      process.stdout.write(
        `${backend} ${signal} at ${point}: ${sent.length} replies, ${tools.requests.length} tool requests, ${effects.size} effects, ${llm.requests().length} LLM calls\n`,
      );
      expect(sent).toHaveLength(expected);
      if (point === "confirm") {
        expect(sent.filter((text) => text.includes("Abeg confirm"))).toHaveLength(1);
        // No tool runs before the customer's Confirm.
        expect(tools.requests).toHaveLength(0);
      } else {
        expect(sent.filter((text) => text.includes("Refund started"))).toHaveLength(1);
        expect(effects.size).toBe(1);
        expect(new Set(tools.requests.map((r) => r.headers["idempotency-key"])).size).toBe(1);
        // The first LLM call is never made again: a resumed turn replays it from the journal.
        const lastMessage = (body: unknown) => {
          const messages = (body as { messages?: { role: string; content: unknown }[] }).messages ?? [];
          return messages[messages.length - 1];
        };
        const askedAboutRefund = llm.requests().filter((r) => {
          const last = lastMessage(r.body);
          return last?.role === "user" && String(last.content).includes("refund order A1");
        });
        expect(askedAboutRefund).toHaveLength(1);
      }
      expect(sent.filter((text) => /welcome/i.test(text))).toHaveLength(point === "confirm" ? 2 : 1);
    },
    90_000,
  );
});
