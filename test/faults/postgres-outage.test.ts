import type pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { eventually } from "../support/eventually.js";
import { deliveryFigures, echoedId, printFigures } from "../support/fault-figures.js";
import { type RedisGateway, startRedisGateway } from "../support/fault-gateway.js";
import { driveLoadThroughFault, loadMessages } from "../support/fault-load.js";
import { createTestPool, dropSchema, TEST_DATABASE_URL, uniqueSchema } from "../support/postgres.js";
import { TEST_REDIS_URL } from "../support/redis.js";
import { TcpProxy } from "../support/tcp-proxy.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const OUTAGE_MS = 10_000;

/**
 * Scenario 3: the message log's PostgreSQL unreachable for 10 s mid-load (a
 * proxy in front of it closes its port and drops every connection; the
 * shared server is never stopped). Turns record their messages in the log
 * before answering, so they fail and retry while it is away: no process may
 * crash, every acknowledged message is answered once, and afterwards the
 * log holds every message and every reply. A reply's Meta wamid is filled in
 * best effort after its send: one whose write failed is missing from the log,
 * and each such gap must have been reported by a warning.
 */
describe("fault: PostgreSQL (message log) unreachable for 10 s mid-load", () => {
  let proxy: TcpProxy | undefined;
  let gateway: RedisGateway | undefined;
  let pool: pg.Pool | undefined;
  let schema: string | undefined;
  afterEach(async () => {
    await gateway?.close();
    await proxy?.stop();
    if (pool !== undefined && schema !== undefined) await dropSchema(pool, schema);
    await pool?.end();
  });

  it("keeps answering, crashes nothing, and the log catches up", async () => {
    const target = new URL(TEST_DATABASE_URL);
    proxy = await TcpProxy.create({ host: target.hostname, port: Number(target.port || 5432) });
    await proxy.start();
    const p = proxy;
    schema = uniqueSchema("faults_pg");
    pool = createTestPool();
    const viaProxy = new URL(TEST_DATABASE_URL);
    viaProxy.port = String(p.port);
    gateway = await startRedisGateway({
      label: "fault-pg-outage",
      redisUrl: TEST_REDIS_URL,
      workers: 2,
      env: { DATABASE_URL: viaProxy.toString(), DATABASE_SCHEMA: schema },
    });
    const g = gateway;
    const messages = loadMessages({
      run: "pg",
      conversations: 150,
      perConversation: 2,
      customerBase: 2348120000000,
    });
    const run = await driveLoadThroughFault({
      messages,
      ratePerSecond: 15,
      baseUrl: () => g.url,
      faultAfterMs: 4000,
      fault: async () => {
        await p.stop();
        await sleep(OUTAGE_MS);
        await p.start();
      },
      answered: () => new Set(g.fake.fake.messages().map(echoedId)).size >= messages.length,
      answerTimeoutMs: 90_000,
      settleMs: 0,
    });
    const { ledger, faultStartedAt: cutAt, faultEndedAt: restoredAt } = run;
    const lastReply = Math.max(...g.fake.fake.messages().map((m) => m.receivedAt));
    const replies = g.fake.fake.messages().length;
    // The log: every customer message, every reply, and each reply's Meta wamid once it was sent.
    const logged = async () => {
      const { rows } = await (pool as pg.Pool).query<{ inbound: string; outbound: string; sent: string }>(
        `SELECT count(*) FILTER (WHERE direction = 'inbound') AS inbound,
                count(*) FILTER (WHERE direction = 'outbound') AS outbound,
                count(*) FILTER (WHERE direction = 'outbound' AND wamid IS NOT NULL) AS sent
           FROM "${schema}".messages`,
      );
      const row = rows[0] as { inbound: string; outbound: string; sent: string };
      return { inbound: Number(row.inbound), outbound: Number(row.outbound), sent: Number(row.sent) };
    };
    await eventually(async () => (await logged()).sent >= replies, 20_000, 500).catch(() => {});
    await sleep(1000);
    const log = await logged();
    const figures = deliveryFigures({ messages, ledger, replies: g.fake.fake.messages(), replyOf: echoedId });
    const setAside = g.logs().match(/turn set aside/g)?.length ?? 0;
    // A reply's wamid is filled in best effort after the send: one that failed is a warning, the gap reported.
    const wamidGapsReported = g.logs().match(/could not record a sent message's wamid/g)?.length ?? 0;
    printFigures("postgres-outage", {
      ...figures,
      outageMs: restoredAt - cutAt,
      backlogAnsweredAfterRestoreMs: lastReply - restoredAt,
      loggedInbound: log.inbound,
      loggedReplies: log.outbound,
      loggedRepliesWithWamid: log.sent,
      wamidGapsReported,
      turnsSetAside: setAside,
      ingressAlive: g.ingress.alive(),
      workersAlive: g.workers.filter((w) => w.child.exitCode === null).length,
    });
    expect(run.unacked).toBe(0);
    expect(g.ingress.alive()).toBe(true);
    expect(
      g.workers.every((w) => w.child.exitCode === null),
      g.logs().slice(-4000),
    ).toBe(true);
    expect(figures.lost, g.logs().slice(-4000)).toEqual([]);
    expect(figures.duplicated).toEqual([]);
    expect(figures.answered).toBe(messages.length);
    expect(log.inbound).toBe(messages.length);
    expect(log.outbound).toBe(replies);
    expect(log.sent + wamidGapsReported).toBeGreaterThanOrEqual(replies);
  });
});
