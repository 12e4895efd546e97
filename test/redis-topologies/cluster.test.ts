import { Worker } from "bullmq";
import type { Cluster } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  createRedisPendingActions,
  createRedisTenantSlots,
  createRedisTokenBudget,
} from "../../src/agent/redis/index.js";
import { startAll } from "../../src/app/index.js";
import { openRedisClient } from "../../src/app/redis/index.js";
import { loadConfig, type RedisServerConfig } from "../../src/config/index.js";
import {
  createRedisConversationLock,
  createRedisConversationState,
  createRedisTurnJournal,
} from "../../src/conversation/redis/index.js";
import { createRedisDeliveryStatusStore } from "../../src/delivery/redis/index.js";
import { signatureFor } from "../../src/ingress/index.js";
import { createLogger } from "../../src/observability/index.js";
import {
  createRedisOutboundQueue,
  createRedisSendOrder,
  createRedisSendRateLimiter,
  createRedisTenantSendPause,
  type RedisOutboundQueue,
} from "../../src/outbound/redis/index.js";
import { QUEUE_NAMES } from "../../src/queue/index.js";
import {
  createKeys,
  createRedisQueues,
  type RedisClient,
  type RedisQueues,
} from "../../src/queue/redis/index.js";
import { describeConversationLockContract } from "../contracts/conversation-lock.contract.js";
import { describeConversationStateContract } from "../contracts/conversation-state.contract.js";
import { describeDeliveryStatusStoreContract } from "../contracts/delivery-status-store.contract.js";
import { describeInboundQueueContract } from "../contracts/inbound-queue.contract.js";
import { describeOutboundQueueContract } from "../contracts/outbound-queue.contract.js";
import { describePendingActionsContract } from "../contracts/pending-actions.contract.js";
import { describeSendOrderContract } from "../contracts/send-order.contract.js";
import { describeSendRateLimiterContract } from "../contracts/send-rate-limiter.contract.js";
import { describeTenantSendPauseContract } from "../contracts/tenant-send-pause.contract.js";
import { describeTenantSlotsContract } from "../contracts/tenant-slots.contract.js";
import { describeTokenBudgetContract } from "../contracts/token-budget.contract.js";
import { describeTurnJournalContract } from "../contracts/turn-journal.contract.js";
import { eventually } from "../support/eventually.js";
import { GRAPH_TOKEN, startFake } from "../support/fake-graph.js";
import { uniquePrefix } from "../support/redis.js";
import { startCluster, type Topology, topologySkipReason } from "../support/redis-topology.js";
import { textWebhook } from "../support/webhook-builder.js";

const title = `Redis Cluster of three redis-server processes${topologySkipReason === undefined ? "" : ` (skipped: ${topologySkipReason})`}`;

describe.skipIf(topologySkipReason !== undefined)(title, () => {
  let topology: Topology;
  let server: RedisServerConfig;
  const clients: RedisClient[] = [];
  /** A client of `behaviour` on the cluster, closed after the file. */
  const client = (behaviour: "failFast" | "patient" = "patient"): Cluster => {
    const opened = openRedisClient(server, behaviour);
    opened.on("error", () => {});
    clients.push(opened);
    return opened as Cluster;
  };
  // One connected client for the adapters, as redisPerTest shares one: a fresh cluster client per test
  // would spend its first command discovering the slots, which the timing contracts would count.
  let shared: Cluster;
  // The hash-tagged form the gateway uses on a cluster (config/topology-config.ts).
  const prefix = (label: string) => `{${uniquePrefix(label)}}`;

  beforeAll(async () => {
    topology = await startCluster();
    server = {
      kind: "cluster",
      nodes: topology.processes.map((p) => ({ host: "127.0.0.1", port: p.port })),
      username: undefined,
      password: undefined,
      tls: undefined,
    };
    shared = client();
    await shared.ping();
  }, 30_000);
  afterAll(async () => {
    for (const opened of clients.splice(0)) opened.disconnect();
    await topology?.stop();
  });

  describe("the Redis adapters' contract suites, on the cluster", () => {
    const inboundOpened: RedisQueues[] = [];
    const outboundOpened: RedisOutboundQueue[] = [];
    afterEach(async () => {
      for (const queues of inboundOpened.splice(0)) await queues.close();
      for (const queue of outboundOpened.splice(0)) await queue.close();
    });

    describeInboundQueueContract("redis cluster", async ({ dedupeTtlSeconds }) => {
      const redis = client("failFast");
      await new Promise<void>((resolve) =>
        redis.status === "ready" ? resolve() : redis.once("ready", () => resolve()),
      );
      const keyPrefix = prefix("cl-inbound");
      const queues = createRedisQueues({
        redis,
        prefix: keyPrefix,
        dedupeTtlSeconds,
        enqueueTimeoutMs: 5000,
      });
      inboundOpened.push(queues);
      const keys = createKeys(keyPrefix);
      return {
        inbound: queues.inbound,
        inbox: queues.inbox,
        status: queues.status,
        async dueTurns() {
          const [ready, delayed] = await Promise.all([
            redis.zrange(keys.ready, 0, -1),
            redis.zrange(keys.delayedTurns, 0, -1),
          ]);
          return [...ready, ...delayed].sort();
        },
        async takeTurns() {
          // Two keys in one DEL: one slot, or the cluster refuses it (CROSSSLOT).
          await redis.del(keys.ready, keys.delayedTurns);
        },
      };
    });

    describeOutboundQueueContract("redis cluster", async () => {
      const queue = createRedisOutboundQueue({ redis: shared, prefix: prefix("cl-outq") });
      outboundOpened.push(queue);
      const states = ["waiting", "prioritized", "delayed", "active", "completed", "failed"] as const;
      return {
        queue,
        async queued() {
          const found = await Promise.all(
            states.map(async (state) =>
              (await queue.queue.getJobs([state])).map((job) => ({
                id: job.id as string,
                data: job.data,
                state: state === "prioritized" ? "waiting" : state,
              })),
            ),
          );
          return found.flat();
        },
        async sendAll() {
          const worker = new Worker(QUEUE_NAMES.outbound, async () => {}, {
            connection: client(),
            prefix: queue.queue.opts.prefix,
          });
          try {
            await eventually(async () => {
              const counts = await queue.queue.getJobCounts("wait", "prioritized", "delayed", "active");
              return Object.values(counts).every((n) => n === 0);
            });
          } finally {
            await worker.close();
          }
        },
      };
    });

    describeSendOrderContract("redis cluster", async () =>
      createRedisSendOrder({ redis: shared, prefix: prefix("cl-order") }),
    );
    describeSendRateLimiterContract("redis cluster", async (options) =>
      createRedisSendRateLimiter({ redis: shared, prefix: prefix("cl-rate"), ...options }),
    );
    describeTenantSendPauseContract("redis cluster", async () =>
      createRedisTenantSendPause({ redis: shared, prefix: prefix("cl-pause") }),
    );
    describeDeliveryStatusStoreContract("redis cluster", async () =>
      createRedisDeliveryStatusStore({ redis: shared, prefix: prefix("cl-delivery") }),
    );
    describeConversationLockContract("redis cluster", async (ttlMs) =>
      createRedisConversationLock({ redis: shared, prefix: prefix("cl-lock"), ttlMs }),
    );
    describeConversationStateContract("redis cluster", async (options) =>
      createRedisConversationState({ redis: shared, prefix: prefix("cl-state"), ...options }),
    );
    describeTurnJournalContract("redis cluster", async () =>
      createRedisTurnJournal({ redis: shared, prefix: prefix("cl-journal") }),
    );
    describePendingActionsContract("redis cluster", async () =>
      createRedisPendingActions(shared, prefix("cl-pending")),
    );
    describeTenantSlotsContract("redis cluster", async (leaseMs) =>
      createRedisTenantSlots(shared, prefix("cl-slots"), leaseMs),
    );
    describeTokenBudgetContract("redis cluster", async (now) =>
      createRedisTokenBudget(shared, prefix("cl-tokens"), now),
    );
  });

  it("answers a message through an ingress and a worker exactly once, every key in one slot", async () => {
    const fake = await startFake();
    const redisPrefix = uniquePrefix("cl-e2e");
    const config = loadConfig({
      env: {
        WHATSAPP_APP_SECRET: "s",
        WHATSAPP_VERIFY_TOKEN: "v",
        WHATSAPP_TOKEN: GRAPH_TOKEN,
        GRAPH_API_BASE_URL: fake.url,
        REDIS_CLUSTER_NODES:
          server.kind === "cluster" ? server.nodes.map((n) => `${n.host}:${n.port}`).join(",") : "",
        REDIS_PREFIX: redisPrefix,
        HOST: "127.0.0.1",
        PORT: "0",
        ADMIN_PORT: "0",
        COALESCE_WINDOW_MS: "0",
        COALESCE_MAX_MS: "0",
      },
      cwd: process.cwd(),
    });
    expect(config.redis.keyPrefix).toBe(`{${redisPrefix}}`);
    const running = await startAll(config, { logger: createLogger({ level: "silent" }) });
    try {
      const body = textWebhook([
        [
          {
            wamid: "wamid.cluster.1",
            from: "2348090000001",
            timestamp: Math.floor(Date.now() / 1000),
            text: "hi",
          },
        ],
      ]);
      const post = () =>
        fetch(`${running.url}/webhook`, {
          method: "POST",
          body,
          headers: { "content-type": "application/json", "x-hub-signature-256": signatureFor(body, "s") },
        });
      expect((await post()).status).toBe(200);
      await eventually(() => fake.fake.messages().length === 1, 10_000);
      // Meta's duplicate delivery is acknowledged and dropped.
      expect((await post()).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(fake.fake.messages().map((m) => m.to)).toEqual(["+2348090000001"]);

      // Every key the gateway wrote, BullMQ's outbound queue included, sits on one node, in one slot.
      const admin = client();
      await admin.ping();
      const perNode = await Promise.all(
        admin.nodes("master").map(async (node) => {
          const [, keys] = await node.scan("0", "MATCH", `{${redisPrefix}}:*`, "COUNT", 10_000);
          return keys;
        }),
      );
      const holding = perNode.filter((keys) => keys.length > 0);
      expect(holding).toHaveLength(1);
      const keys = holding[0] ?? [];
      expect(keys.some((key) => key.startsWith(`{${redisPrefix}}:outbound:`))).toBe(true);
      expect(keys.some((key) => key.startsWith(`{${redisPrefix}}:wamid:`))).toBe(true);
      const slots = new Set(await Promise.all(keys.map((key) => admin.cluster("KEYSLOT", key))));
      expect(slots.size).toBe(1);
    } finally {
      await running.close();
      await fake.fake.close();
    }
  }, 30_000);
});
